import { ConfigError, place } from './config-error.js';

export type TokenKind =
  | 'section' // `<name>`, text = the name as written, trimmed
  | 'name' // a key
  | 'string' // quoted, text = without the quotes
  | 'bare' // an unquoted value or list item, trimmed
  | '='
  | ';'
  | '{'
  | '}'
  | ','
  | 'other' // a character that cannot start anything in this position
  | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** 1-based line where the token starts. */
  readonly line: number;
}

/**
 * What the parser expects next; it decides where a bare word ends, which the characters
 * alone cannot (a bare list item `^#.*` holds a `#`, a bare value may hold spaces):
 * - `statement`: a `<section>`, a key, `=` or `;`; a `#` starts a comment anywhere here.
 * - `value`: after `=`: `{`, a quoted string, or a bare word running to `;` or the end of the line.
 * - `item`: inside `{ }`: `,`, `}`, a quoted string, or a bare item running to `,`, `}`, `;` or
 *   the end of the line.
 */
export type LexMode = 'statement' | 'value' | 'item';

const NAME_CHAR = /[A-Za-z0-9_.-]/y;

/**
 * The Crawler.conf tokenizer: a cursor over the text that the parser pulls tokens from, one
 * mode at a time. Lines whose first non-blank character is `#` are comments in every mode.
 * Strings are quoted with `"` or `'`, end at the same quote on the same line, and keep
 * backslashes as written (so regular expressions need no doubling).
 *
 * @example
 * const lx = new ConfLexer('threads = 16;', 'Crawler.conf');
 * [lx.next('statement'), lx.next('statement'), lx.next('value'), lx.next('statement')].map((t) => t.kind)
 * //=> ['name', '=', 'bare', ';']
 */
export class ConfLexer {
  private pos = 0;
  private line = 1;
  /** Only blanks since the last newline (or the start): a `#` here opens a comment line. */
  private atLineStart = true;

  constructor(
    private readonly src: string,
    private readonly file: string,
  ) {
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  /** The next token for the given mode; `eof` at the end, again and again. */
  next(mode: LexMode): Token {
    this.skipBlanks(mode === 'statement');
    const line = this.line;
    const src = this.src;
    if (this.pos >= src.length) return { kind: 'eof', text: '', line };
    const c = src[this.pos]!;
    this.atLineStart = false;
    if (c === '"' || c === "'") return this.quoted(c, line);
    if (c === ';' || (c === '{' && mode === 'value') || ((c === ',' || c === '}') && mode === 'item')) {
      this.pos++;
      return { kind: c, text: c, line };
    }
    if (mode === 'value') return this.bare(line, ';');
    if (mode === 'item') return this.bare(line, ',};');
    return this.statementToken(c, line);
  }

  private statementToken(c: string, line: number): Token {
    const src = this.src;
    if (c === '<') {
      const end = src.indexOf('>', this.pos);
      const eol = this.endOfLine(this.pos);
      if (end < 0 || end > eol) throw this.error(line, 'unterminated section header: expected ">"');
      const text = src.slice(this.pos + 1, end).trim();
      this.pos = end + 1;
      return { kind: 'section', text, line };
    }
    if (c === '=' || c === '{' || c === '}' || c === ',') {
      this.pos++;
      return { kind: c, text: c, line };
    }
    const start = this.pos;
    NAME_CHAR.lastIndex = start;
    while (NAME_CHAR.test(src)) this.pos = NAME_CHAR.lastIndex;
    if (this.pos > start) return { kind: 'name', text: src.slice(start, this.pos), line };
    this.pos++;
    return { kind: 'other', text: c, line };
  }

  private quoted(quote: string, line: number): Token {
    const close = this.src.indexOf(quote, this.pos + 1);
    if (close < 0 || close > this.endOfLine(this.pos)) {
      throw this.error(line, `unterminated string (opened here): expected ${quote} before the end of the line`);
    }
    const text = this.src.slice(this.pos + 1, close);
    this.pos = close + 1;
    return { kind: 'string', text, line };
  }

  /** A bare word: up to one of `stops` or the end of the line, trimmed. Never empty. */
  private bare(line: number, stops: string): Token {
    const src = this.src;
    const start = this.pos;
    let end = start;
    while (end < src.length && src[end] !== '\n' && !stops.includes(src[end]!)) end++;
    this.pos = end;
    return { kind: 'bare', text: src.slice(start, end).trim(), line };
  }

  /** Skips blanks, newlines and comment lines (and, where keys are expected, trailing `#` comments). */
  private skipBlanks(hashComments: boolean): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (c === '\n') {
        this.line++;
        this.atLineStart = true;
        this.pos++;
      } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.pos++;
      } else if (c === '#' && (this.atLineStart || hashComments)) {
        this.pos = this.endOfLine(this.pos);
      } else {
        return;
      }
    }
  }

  private endOfLine(from: number): number {
    const eol = this.src.indexOf('\n', from);
    return eol < 0 ? this.src.length : eol;
  }

  /** A syntax error at a line of this file. */
  error(line: number, detail: string): ConfigError {
    return new ConfigError('conf-syntax', place(this.file, line), detail);
  }
}

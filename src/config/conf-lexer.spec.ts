import { describe, expect, it } from 'vitest';
import { ConfLexer, type LexMode, type Token } from './conf-lexer.js';
import { ConfigError } from './config-error.js';

/** Pulls tokens in the given modes, then checks the lexer is at the end. */
function lex(src: string, modes: readonly LexMode[]): Token[] {
  const lx = new ConfLexer(src, 'test.conf');
  const out = modes.map((m) => lx.next(m));
  expect(lx.next('statement').kind).toBe('eof');
  return out;
}

const brief = (ts: Token[]): string[] => ts.map((t) => `${t.kind}:${t.text}@${t.line}`);

describe('ConfLexer', () => {
  it('reads a statement, the bare value running to the semicolon, trimmed', () => {
    expect(brief(lex('scope = domain-scope ;', ['statement', 'statement', 'value', 'statement']))).toEqual([
      'name:scope@1', '=:=@1', 'bare:domain-scope@1', ';:;@1',
    ]);
  });

  it('ends a bare list item at a comma or a closing brace, keeping # inside it', () => {
    const ts = lex('{ ^#.*,.*\\?.* }', ['value', 'item', 'item', 'item', 'item']);
    expect(brief(ts)).toEqual(['{:{@1', 'bare:^#.*@1', ',:,@1', 'bare:.*\\?.*@1', '}:}@1']);
  });

  it('keeps backslashes in quoted strings and accepts single quotes', () => {
    const ts = lex(`".*\\.[pP][dD][fF]$" 'a"b'`, ['value', 'item']);
    expect(ts.map((t) => t.text)).toEqual(['.*\\.[pP][dD][fF]$', 'a"b']);
  });

  it('skips comment lines in every mode and counts their lines', () => {
    const src = '# head\n  # indented\nkey =\n# between\n{\n # in a list\n "x" }';
    const ts = lex(src, ['statement', 'statement', 'value', 'item', 'item']);
    expect(brief(ts)).toEqual(['name:key@3', '=:=@3', '{:{@5', 'string:x@7', '}:}@7']);
  });

  it('treats # after a statement as a comment, but not inside a value', () => {
    const ts = lex('a = 1; # note\nb = x # y;', ['statement', 'statement', 'value', 'statement', 'statement', 'statement', 'value', 'statement']);
    expect(ts[6]!.text).toBe('x # y');
    expect(ts[3]!.kind).toBe(';');
    expect(ts[4]!.line).toBe(2);
  });

  it('reads section headers, trimmed, and ignores a byte-order mark and CR line ends', () => {
    const ts = lex('\uFEFF< logging >\r\nlog-level = 2;\r\n', ['statement', 'statement', 'statement', 'value', 'statement']);
    expect(brief(ts)).toEqual(['section:logging@1', 'name:log-level@2', '=:=@2', 'bare:2@2', ';:;@2']);
  });

  it('returns characters that start nothing as "other"', () => {
    expect(brief(lex('@', ['statement']))).toEqual(['other:@@1']);
  });

  it('reports an unterminated string at the line of its opening quote', () => {
    const lx = new ConfLexer('a =\n "http://x/;\n', 'c.conf');
    lx.next('statement');
    lx.next('statement');
    expect(() => lx.next('value')).toThrowError(
      new ConfigError('conf-syntax', 'c.conf:2', 'unterminated string (opened here): expected " before the end of the line'),
    );
  });

  it('reports a section header without ">" on its line', () => {
    const lx = new ConfLexer('\n<logging\nx>', 'c.conf');
    expect(() => lx.next('statement')).toThrow('c.conf:2: unterminated section header: expected ">"');
  });

  it('keeps returning eof at the end', () => {
    const lx = new ConfLexer('  \n', 'c.conf');
    expect(lx.next('item')).toEqual({ kind: 'eof', text: '', line: 2 });
    expect(lx.next('value').kind).toBe('eof');
  });
});

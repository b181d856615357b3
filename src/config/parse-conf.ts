import { ConfigError, place } from './config-error.js';
import { ConfLexer, type Token } from './conf-lexer.js';
import { isSection, SECTIONS, type SectionName } from './sections.js';
import { orList } from './wording.js';

/** One value as written: a number, a word or a string, all kept as text for the key to read. */
export interface ConfItem {
  readonly text: string;
  /** 1-based line of the item, so that a bad list item is reported where it is. */
  readonly line: number;
}

export type ConfValue =
  | ({ readonly kind: 'scalar' } & ConfItem)
  | { readonly kind: 'list'; readonly items: readonly ConfItem[]; readonly line: number };

/** One `key = value ;` statement. */
export interface ConfStatement {
  /** The section in effect (lowercased), undefined before the first header. */
  readonly section: SectionName | undefined;
  /** Lowercased: keys are case-insensitive. */
  readonly key: string;
  readonly value: ConfValue;
  /** 1-based line where the statement (its key) starts. */
  readonly line: number;
}

/**
 * Reads the Crawler.conf format (SPEC §3) into statements, checking only the syntax and the
 * section names; what the keys mean is the key table's business. Throws a {@link ConfigError}
 * (`conf-syntax`, `conf-unknown-section`) whose message is `FILE:LINE: problem`.
 *
 * @example
 * parseConf('<logging>\nLog-Level = 1;\n', 'Crawler.conf')
 * //=> [{ section: 'logging', key: 'log-level', value: { kind: 'scalar', text: '1', line: 2 }, line: 2 }]
 */
export function parseConf(text: string, file: string): ConfStatement[] {
  const lx = new ConfLexer(text, file);
  const out: ConfStatement[] = [];
  let section: SectionName | undefined;
  for (;;) {
    const t = lx.next('statement');
    switch (t.kind) {
      case 'eof':
        return out;
      case ';':
        continue; // a stray `;` is an empty statement
      case 'section': {
        const name = t.text.toLowerCase();
        if (!isSection(name)) {
          throw new ConfigError(
            'conf-unknown-section',
            place(file, t.line),
            `unknown section <${t.text}> (expected ${orList(SECTIONS.map((s) => `<${s}>`))})`,
          );
        }
        section = name;
        continue;
      }
      case 'name':
        out.push({ section, key: t.text.toLowerCase(), value: readValue(lx, t), line: t.line });
        continue;
      default:
        throw lx.error(t.line, `expected a key or a <section>, found ${describe(t)}`);
    }
  }
}

/** `= value ;` after a key. */
function readValue(lx: ConfLexer, key: Token): ConfValue {
  const eq = lx.next('statement');
  if (eq.kind !== '=') throw lx.error(eq.line, `expected "=" after ${key.text}, found ${describe(eq)}`);
  const v = lx.next('value');
  let value: ConfValue;
  if (v.kind === '{') value = { kind: 'list', items: readList(lx, v), line: v.line };
  else if (v.kind === 'string' || v.kind === 'bare') value = { kind: 'scalar', text: v.text, line: v.line };
  else throw lx.error(v.line, `missing value for ${key.text} (found ${describe(v)})`);
  const end = lx.next('statement');
  if (end.kind !== ';') {
    const found = end.kind === 'eof' ? 'at the end of the file' : `before ${describe(end)} on line ${end.line}`;
    throw lx.error(key.line, `missing ";" after the value of ${key.text}, ${found}`);
  }
  return value;
}

/** The items of a `{ ... }` list, after its `{`. Empty items (`a,,b`, a trailing comma) are skipped. */
function readList(lx: ConfLexer, open: Token): ConfItem[] {
  const items: ConfItem[] = [];
  const unterminated = (t: Token): ConfigError =>
    lx.error(
      open.line,
      t.kind === 'eof' || t.kind === ';'
        ? 'unterminated list (opened here)'
        : `unterminated list (opened here): expected "," or "}" before line ${t.line}`,
    );
  for (;;) {
    const t = lx.next('item');
    if (t.kind === '}') return items;
    if (t.kind === ',') continue;
    if (t.kind !== 'string' && t.kind !== 'bare') throw unterminated(t);
    items.push({ text: t.text, line: t.line });
    const sep = lx.next('item');
    if (sep.kind === '}') return items;
    if (sep.kind === ',') continue;
    if (sep.kind === ';' || sep.kind === 'eof' || sep.line !== t.line) throw unterminated(sep);
    throw lx.error(sep.line, `expected "," or "}" between list items, found ${describe(sep)}`);
  }
}

function describe(t: Token): string {
  if (t.kind === 'eof') return 'the end of the file';
  return t.kind === 'section' ? `<${t.text}>` : `"${t.text}"`;
}

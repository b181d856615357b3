import { isIP } from 'node:net';
import type { ResolveEntry } from '../model/config.js';
import type { ConfItem, ConfValue } from './parse-conf.js';
import { refusedRepository } from './system-folder.js';
import { orList } from './wording.js';
import { boundedRegExp } from './bounded-regexp.js';

/**
 * A value a key cannot take. The message has no place; the caller adds `FILE:LINE` or the flag.
 * `line` is set when one item of a multi-line list is at fault.
 */
export class BadValue extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** Reads one key's value; `key` is the key's name, for messages. Throws {@link BadValue}. */
export type ValueParser<T> = (value: ConfValue, key: string) => T;

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function single(v: ConfValue, key: string): ConfItem {
  if (v.kind === 'list') throw new BadValue(`${key} takes a single value, not a list`, v.line);
  return v;
}

/** A scalar where a list is expected is a list of one, as a lenient reader should take it. */
function items(v: ConfValue): readonly ConfItem[] {
  return v.kind === 'list' ? v.items : [v];
}

export interface NumberRule {
  readonly min?: number;
  readonly max?: number;
  /** Whole numbers only (the default) or fractions allowed. */
  readonly fraction?: boolean;
  /** Unit conversion applied after the checks, e.g. 1000 for seconds → milliseconds. */
  readonly factor?: number;
  /** Below `min`, read 0 (max-page-number: "0 or negative means no limit"). */
  readonly belowMinIsZero?: boolean;
}

/**
 * A number within bounds, converted to the config's unit.
 *
 * @example
 * numberOf({ min: 0, factor: 1000 })({ kind: 'scalar', text: '2', line: 1 }, 'time-limit') //=> 2000
 */
export function numberOf(rule: NumberRule = {}): ValueParser<number> {
  const { min = 0, max = Number.MAX_SAFE_INTEGER, fraction = false, factor = 1, belowMinIsZero = false } = rule;
  return (v, key) => {
    const { text } = single(v, key);
    if (!DECIMAL.test(text)) throw new BadValue(`"${text}" is not a number for ${key}`);
    if (!fraction && !INTEGER.test(text)) throw new BadValue(`"${text}" is not a whole number for ${key}`);
    const n = Number(text);
    if (n < min) {
      if (belowMinIsZero) return 0;
      throw new BadValue(`${key} must be at least ${min}, not ${text}`);
    }
    if (n > max) throw new BadValue(`${key} must be at most ${max}, not ${text}`);
    return n * factor;
  };
}

/**
 * One of a fixed set of words, case-insensitive.
 *
 * @example
 * choiceOf(['bfs', 'dfs'] as const)({ kind: 'scalar', text: 'DFS', line: 1 }, 'traversal-algorithm') //=> 'dfs'
 */
export function choiceOf<T extends string>(choices: readonly T[]): ValueParser<T> {
  return (v, key) => {
    const { text } = single(v, key);
    const lower = text.toLowerCase();
    const found = choices.find((c) => c === lower);
    if (found === undefined) throw new BadValue(`unknown ${key} "${text}" (expected ${orList(choices)})`);
    return found;
  };
}

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/** `true`/`false` (also yes/no, on/off, 1/0), case-insensitive. */
export const booleanValue: ValueParser<boolean> = (v, key) => {
  const { text } = single(v, key);
  const lower = text.toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  throw new BadValue(`"${text}" is not true or false for ${key}`);
};

/**
 * `true`, `false`, or one more word that says how (case-insensitive).
 *
 * @example
 * booleanOr('guess')({ kind: 'scalar', text: 'Guess', line: 1 }, 'sitemaps') //=> 'guess'
 */
export function booleanOr<W extends string>(word: W): ValueParser<boolean | W> {
  return (v, key) => {
    const { text } = single(v, key);
    if (text.toLowerCase() === word) return word;
    if (TRUE.has(text.toLowerCase()) || FALSE.has(text.toLowerCase())) return booleanValue(v, key);
    throw new BadValue(`"${text}" is not true, false or ${word} for ${key}`);
  };
}

/** A non-empty string. */
export const textValue: ValueParser<string> = (v, key) => {
  const { text } = single(v, key);
  if (text === '') throw new BadValue(`${key} must not be empty`);
  return text;
};

/** A folder a crawl may write into: not the root, a system folder or the home folder itself (see {@link refusedRepository}). */
export const repositoryFolder: ValueParser<string> = (v, key) => {
  const text = textValue(v, key);
  const why = refusedRepository(text);
  if (why !== undefined)
    throw new BadValue(`"${text}" is ${why}, refused for ${key}: a crawl writes its mirror (a folder per host), index.txt, stats.json and .tarantula into it; name a folder of its own, e.g. ./repository`);
  return text;
};

/** A string, where the empty string means "not set". */
export const optionalText: ValueParser<string | undefined> = (v, key) => single(v, key).text || undefined;

/** `redis://HOST:PORT/DB` (or `rediss://`), or empty for "not set". */
export const redisUrl: ValueParser<string | undefined> = (v, key) => {
  const text = optionalText(v, key);
  if (text === undefined) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || !/^rediss?:$/.test(url.protocol) || url.hostname === '' || !/^(\/\d*)?$/.test(url.pathname))
    throw new BadValue(`"${text}" is not a redis://HOST:PORT/DB URL for ${key}`);
  return text;
};

/** A name made of letters, digits, `.`, `_` and `-`, or empty for "not set" (it goes inside Redis key names and their hash tag). */
export const nameValue: ValueParser<string | undefined> = (v, key) => {
  const text = optionalText(v, key);
  if (text !== undefined && !/^[A-Za-z0-9._-]+$/.test(text)) throw new BadValue(`"${text}" is not a name for ${key} (letters, digits, ".", "_" and "-")`);
  return text;
};

/** Whether `text` is an absolute http or https URL, the only kind a crawl can start from. */
export const isHttpUrl = (text: string): boolean => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

/** Absolute http(s) URLs, kept as written: the index reports seeds as the configuration wrote them. */
export const urlList: ValueParser<readonly string[]> = (v, key) =>
  items(v).map(({ text, line }) => {
    // `--seed -` is what a user who pipes URLs in tries first.
    if (text === '-') throw new BadValue(`"-" is not an absolute http(s) URL in ${key}; to read URLs from stdin, use -i - (--input-file -)`, line);
    if (!isHttpUrl(text)) throw new BadValue(`"${text}" is not an absolute http(s) URL in ${key}`, line);
    return text;
  });

/** File paths, none empty. */
export const pathList: ValueParser<readonly string[]> = (v, key) =>
  items(v).map(({ text, line }) => {
    if (text === '') throw new BadValue(`an empty file name in ${key}`, line);
    return text;
  });

/** JavaScript regular expressions, without flags, each one V8 can match in linear time ({@link boundedRegExp}). */
export const regexList: ValueParser<readonly RegExp[]> = (v, key) =>
  items(v).map(({ text, line }) => {
    try {
      new RegExp(text);
    } catch (err) {
      // V8 says `Invalid regular expression: /(/: Unterminated group`; the reason is the last part.
      const message = (err as Error).message;
      throw new BadValue(`bad regular expression "${text}": ${message.slice(message.lastIndexOf(': ') + 2)}`, line);
    }
    try {
      return boundedRegExp(text, '', key);
    } catch (err) {
      throw new BadValue((err as Error).message, line);
    }
  });

const RESOLVE = /^([^:\s]+):(\d+):(.+)$/;

/**
 * `HOST:PORT:ADDRESS` entries, as curl's `--resolve`; an IPv6 address may be in brackets.
 *
 * @example
 * resolveList({ kind: 'scalar', text: 'www.tarantula.test:80:[::1]', line: 1 }, 'resolve')
 * //=> [{ host: 'www.tarantula.test', port: 80, address: '::1' }]
 */
export const resolveList: ValueParser<readonly ResolveEntry[]> = (v, key) =>
  items(v).map(({ text, line }) => {
    const m = RESOLVE.exec(text);
    if (m === null) throw new BadValue(`"${text}" is not HOST:PORT:ADDRESS in ${key}`, line);
    const port = Number(m[2]);
    if (port < 1 || port > 65535) throw new BadValue(`bad port ${m[2]} in ${key} entry "${text}"`, line);
    const address = m[3]!.replace(/^\[(.*)\]$/, '$1');
    if (isIP(address) === 0) throw new BadValue(`"${m[3]}" is not an IP address in ${key} entry "${text}"`, line);
    return { host: m[1]!.toLowerCase(), port, address };
  });

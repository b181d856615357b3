import type { CrawlerConfig } from '../model/config.js';
import { ConfigError } from './config-error.js';
import { readKey, type ConfigOverrides } from './build-config.js';
import { FIELD_OF_KEY, KEYS } from './keys.js';
import { BadValue, choiceOf, numberOf, type ValueParser } from './value-parsers.js';
import { didYouMean, orList } from './wording.js';
import { isVersionFlag } from './version.js';

export type Command = 'crawl' | 'run' | 'pagerank' | 'report' | 'merge' | 'demo' | 'help' | 'version';
export type PagerankFormat = 'table' | 'tsv' | 'jsonl';

export interface PagerankOptions {
  /** Rows printed, best first; 0 = all. Default 10. */
  readonly top: number;
  /** Default `table`. */
  readonly format: PagerankFormat;
  /** Probability of following a link, 0 ≤ D < 1. Default 0.85. */
  readonly damping: number;
}

/** The command line, checked: every value is already valid. */
export interface ParsedArgs {
  readonly command: Command;
  /** `help COMMAND`, `COMMAND --help`: the command to describe; undefined for the whole usage. */
  readonly helpTopic: RunCommand | undefined;
  /** The CONF argument; undefined means ./Crawler.conf (see `loadConfig`). */
  readonly confPath: string | undefined;
  /** `run PIPELINE`. */
  readonly pipelinePath: string | undefined;
  /** `pagerank INDEX`. */
  readonly indexPath: string | undefined;
  /** `report REPOSITORY`. */
  readonly reportPath: string | undefined;
  /** `merge INTO REPOSITORY…`: INTO, then the parts. */
  readonly mergePaths: readonly string[] | undefined;
  /** `crawl --watch`: recrawl every `period` hours. */
  readonly watch: boolean;
  /** `crawl --report`, `demo --report`: write REPOSITORY/report.html at the end. */
  readonly report: boolean;
  /** The flags that override Crawler.conf; for `loadConfig`. */
  readonly overrides: ConfigOverrides;
  readonly pagerank: PagerankOptions;
}

/** The commands that do something (beside help and version), in the order `--help` lists them. */
export const COMMANDS = ['crawl', 'run', 'pagerank', 'report', 'merge', 'demo'] as const;
export type RunCommand = (typeof COMMANDS)[number];

/** The short flags of SPEC §2, and the config key each one sets. Every key is also `--KEY`. */
export const FLAG_ALIASES: ReadonlyMap<string, string> = new Map([
  ['seed', 'starting-points'],
  ['input-file', 'input-files'],
  ['max-pages', 'max-page-number'],
  ['traversal', 'traversal-algorithm'],
  ['index', 'index-file'],
  ['format', 'index-format'],
  ['header', 'headers'],
  ['warc', 'warc-file'],
]);

/** One-letter flags, and the key each sets: wget's `-i FILE`, which users bring to `... | tarantula crawl -i -`. */
export const SHORT_FLAGS: ReadonlyMap<string, string> = new Map([['-i', 'input-file']]);

const fraction = numberOf({ fraction: true, max: 1 });
const PAGERANK_FLAGS: { readonly [K in keyof PagerankOptions]: ValueParser<PagerankOptions[K]> } = {
  top: numberOf(),
  format: choiceOf<PagerankFormat>(['table', 'tsv', 'jsonl']),
  damping: (v, key) => {
    const d = fraction(v, key);
    if (d === 1) throw new BadValue(`${key} must be below 1`);
    return d;
  },
};
/** The pagerank command's options when no flag is given. */
export const DEFAULT_PAGERANK: PagerankOptions = { top: 10, format: 'table', damping: 0.85 };

/** [min, max] positional arguments of each command, and what they are. */
const POSITIONALS: Record<RunCommand, readonly [number, number, string]> = {
  crawl: [0, 1, 'crawl [CONF]'],
  run: [1, 2, 'run PIPELINE [CONF]'],
  pagerank: [1, 1, 'pagerank INDEX'],
  report: [1, 1, 'report REPOSITORY'],
  merge: [2, Infinity, 'merge INTO REPOSITORY…'],
  demo: [0, 0, 'demo'],
};

/**
 * Reads the command line of SPEC §2 (`process.argv.slice(2)`). Flags take `--flag value` or
 * `--flag=value`; a list key's flag may be repeated and each use adds one item. A value is
 * checked by the same key table as Crawler.conf, here, before anything else happens.
 *
 * @throws {ConfigError} `arg-unknown`, `arg-missing`, `arg-bad-value` or `arg-extra`; the caller
 *   prints the message and exits with status 2.
 * @example
 * parseArgs(['crawl', 'my.conf', '--seed', 'http://a.test/', '--max-depth=3'])
 * //=> { command: 'crawl', confPath: 'my.conf', overrides: { startingPoints: ['http://a.test/'], maxDepth: 3 }, ... }
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [first, ...rest] = argv;
  if (first === 'help' && argv.length > 1 && !isHelp(argv[1]!)) return bare('help', knownCommand(argv[1]!, argv.length > 2 ? argv[2] : undefined));
  if (first === undefined || first === 'help' || isHelp(first)) return bare('help');
  if (isVersionFlag(first)) return bare('version');
  const command = knownCommand(first);
  const positionals: string[] = [];
  const overrides: { [F in keyof CrawlerConfig]?: CrawlerConfig[F] } = {};
  const lists = new Map<keyof CrawlerConfig, unknown[]>();
  const pagerank: { -readonly [K in keyof PagerankOptions]: PagerankOptions[K] } = { ...DEFAULT_PAGERANK };
  let watch = false;
  let report = false;
  for (let i = 0; i < rest.length; i++) {
    const short = SHORT_FLAGS.get(rest[i]!);
    const arg = short === undefined ? rest[i]! : `--${short}`;
    if (arg === '--') {
      positionals.push(...rest.slice(i + 1));
      break;
    }
    if (isHelp(arg)) return bare('help', command);
    if (isVersionFlag(arg)) return bare('version');
    if (!arg.startsWith('--')) {
      if (arg.startsWith('-') && arg !== '-') throw unknownFlag(arg, command);
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = (eq < 0 ? arg : arg.slice(0, eq)).toLowerCase();
    const name = flag.slice(2);
    const value = (): string => {
      if (eq >= 0) return arg.slice(eq + 1);
      const next = rest[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        throw new ConfigError('arg-missing', flag, 'missing value');
      }
      i++;
      return next;
    };
    if (command === 'pagerank') {
      if (name === 'top') pagerank.top = readFlag(flag, value(), PAGERANK_FLAGS.top);
      else if (name === 'format') pagerank.format = readFlag(flag, value(), PAGERANK_FLAGS.format);
      else if (name === 'damping') pagerank.damping = readFlag(flag, value(), PAGERANK_FLAGS.damping);
      else throw unknownFlag(flag, command);
    } else if (command === 'report' || command === 'merge') {
      throw unknownFlag(flag, command);
    } else if (name === 'watch' && command === 'crawl') {
      if (eq >= 0) throw new ConfigError('arg-bad-value', flag, 'takes no value');
      watch = true;
    } else if (name === 'report' && (command === 'crawl' || command === 'demo')) {
      if (eq >= 0) throw new ConfigError('arg-bad-value', flag, 'takes no value');
      report = true;
    } else {
      const field = FIELD_OF_KEY.get(FLAG_ALIASES.get(name) ?? name);
      if (field === undefined) throw unknownFlag(flag, command);
      // A true/false key's flag alone means true (`--insecure`), as curl's switches, unless a word it reads follows (`off`, `guess`).
      const bareSwitch = KEYS[field].kind === 'boolean' && eq < 0 && !reads(field, rest[i + 1]);
      const read = readKey(field, { kind: 'scalar', text: bareSwitch ? 'true' : value(), line: 0 }, () => flag, 'arg-bad-value');
      if (KEYS[field].kind !== 'list') Object.assign(overrides, { [field]: read });
      else lists.set(field, [...(lists.get(field) ?? []), ...(read as readonly unknown[])]);
    }
  }
  for (const [field, items] of lists) Object.assign(overrides, { [field]: items });
  return { ...placePositionals(command, positionals), command, helpTopic: undefined, watch, report, overrides, pagerank };
}

function placePositionals(
  command: RunCommand,
  args: readonly string[],
): Pick<ParsedArgs, 'confPath' | 'pipelinePath' | 'indexPath' | 'reportPath' | 'mergePaths'> {
  const [min, max, synopsis] = POSITIONALS[command];
  if (args.length < min) throw new ConfigError('arg-missing', '', `usage: tarantula ${synopsis} (see --help)`);
  if (args.length > max) {
    throw new ConfigError('arg-extra', '', `unexpected argument "${args[max]}" (usage: tarantula ${synopsis})`);
  }
  const none = { confPath: undefined, pipelinePath: undefined, indexPath: undefined, reportPath: undefined, mergePaths: undefined };
  if (command === 'run') return { ...none, pipelinePath: args[0], confPath: args[1] };
  if (command === 'pagerank') return { ...none, indexPath: args[0] };
  if (command === 'report') return { ...none, reportPath: args[0] };
  if (command === 'merge') return { ...none, mergePaths: args };
  return { ...none, confPath: args[0] };
}

/** Whether a key reads `word` as its value (so the word after a switch's flag is its value, not a file name). */
function reads(field: keyof CrawlerConfig, word: string | undefined): boolean {
  if (word === undefined) return false;
  try {
    KEYS[field].parse({ kind: 'scalar', text: word, line: 0 }, KEYS[field].name);
    return true;
  } catch {
    return false;
  }
}

/** A pagerank flag's value, as a flag error when refused. */
function readFlag<T>(flag: string, text: string, parse: ValueParser<T>): T {
  try {
    return parse({ kind: 'scalar', text, line: 0 }, flag.slice(2));
  } catch (err) {
    if (err instanceof BadValue) throw new ConfigError('arg-bad-value', flag, err.message);
    throw err;
  }
}

function unknownFlag(flag: string, command: RunCommand): ConfigError {
  const names =
    command === 'pagerank'
      ? Object.keys(PAGERANK_FLAGS)
      : command === 'report' || command === 'merge'
        ? []
        : [...FLAG_ALIASES.keys(), ...FIELD_OF_KEY.keys(), ...(command === 'crawl' ? ['watch', 'report'] : command === 'demo' ? ['report'] : [])];
  const hint = didYouMean(flag.replace(/^-+/, ''), names, '--');
  return new ConfigError('arg-unknown', flag, `unknown option for ${command}${hint}`);
}

/** The command named NAME, or an `arg-unknown` error naming it; `help` takes one command at most. */
function knownCommand(name: string, extra?: string): RunCommand {
  const command = COMMANDS.find((c) => c === name);
  if (command === undefined) throw new ConfigError('arg-unknown', '', `unknown command "${name}" (expected ${orList(COMMANDS)}; see --help)`);
  if (extra !== undefined) throw new ConfigError('arg-extra', '', `unexpected argument "${extra}" (usage: tarantula help [COMMAND])`);
  return command;
}

function bare(command: 'help' | 'version', helpTopic?: RunCommand): ParsedArgs {
  return {
    command,
    helpTopic,
    confPath: undefined,
    pipelinePath: undefined,
    indexPath: undefined,
    reportPath: undefined,
    mergePaths: undefined,
    watch: false,
    report: false,
    overrides: {},
    pagerank: DEFAULT_PAGERANK,
  };
}

const isHelp = (arg: string): boolean => arg === '--help' || arg === '-h';

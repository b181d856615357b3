import type { CrawlerConfig } from '../model/config.js';
import { KEYS } from './keys.js';
import { FLAG_ALIASES, SHORT_FLAGS } from './parse-args.js';

const HEAD = `Usage:
  tarantula crawl [CONF] [--watch] [--report] [FLAGS]
                                             crawl as CONF says (default ./Crawler.conf);
                                             --watch: then recrawl every \`period\` hours;
                                             --report: then write REPOSITORY/report.html
  tarantula run PIPELINE [CONF] [FLAGS]      run a pipeline file (pipelines/NAME.ts, or a path)
  tarantula pagerank INDEX [--top N] [--format table|tsv|jsonl] [--damping D]
                                             link analysis over an index file (defaults: 10, table, 0.85)
  tarantula report REPOSITORY                write REPOSITORY/report.html: charts of a crawl
  tarantula merge INTO REPOSITORY…           make one repository INTO of the repositories of a crawl
                                             shared over several machines (index, stats, CDXJ)
  tarantula demo [--report] [FLAGS]          serve the bundled fixture web on loopback and crawl it
  tarantula help [COMMAND]                   this text, or one command's flags and what it does
  tarantula --help | --version

FLAGS override Crawler.conf. Write --flag VALUE or --flag=VALUE; a list flag may be repeated,
each use adding one item, and replaces the file's list (--resolve and --header add to it).
A true|false flag alone means true (--insecure, --cookies).
`;

/**
 * The `--help` text: the commands, then one line per flag, generated from the key table so
 * that it lists every key with its unit and default.
 *
 * @example
 * usage().includes('--max-depth N') //=> true
 */
export function usage(): string {
  const lines = (Object.keys(KEYS) as (keyof CrawlerConfig)[]).map(keyFlagLine);
  return `${HEAD}\n${lines.join('\n')}\n\nEvery key is documented in the shipped Crawler.conf; tarantula help COMMAND says more.\n`;
}

/**
 * One key's flag line of the help texts: its short flag and alias if any, its value, unit and default.
 *
 * @example
 * keyFlagLine('maxCrawlDelayMs') //=> '  --max-crawl-delay N   …   seconds; default 60'
 */
export function keyFlagLine(field: keyof CrawlerConfig): string {
  const spec = KEYS[field];
  const alias = ALIAS_OF.get(spec.name);
  const choice = spec.kind === 'choice' || spec.kind === 'boolean';
  const value = choice ? spec.unit.replaceAll(', ', '|') : (METAVAR[spec.name] ?? 'N');
  const short = SHORT_OF.get(alias ?? spec.name);
  const flags = `${short === undefined ? '' : `${short}, `}${alias === undefined ? '' : `--${alias}, `}--${spec.name} ${value}`;
  const shown = spec.default === '{ }' || spec.default === '""' ? 'none' : spec.default;
  return `  ${flags.padEnd(44)} ${choice ? '' : `${spec.unit}; `}default ${shown}`;
}

const ALIAS_OF = new Map([...FLAG_ALIASES].map(([alias, key]) => [key, alias]));
const SHORT_OF = new Map([...SHORT_FLAGS].map(([short, flag]) => [flag, short]));

/** What a flag's value is, where it is not a number (N) or one of the listed choices. */
const METAVAR: Readonly<Record<string, string>> = {
  'starting-points': 'URL',
  'input-files': 'FILE',
  'accept-list': 'REGEX',
  'reject-list': 'REGEX',
  resolve: 'HOST:PORT:ADDRESS',
  repository: 'DIR',
  'user-agent': 'S',
  'log-file': 'FILE',
  serve: '[HOST:]PORT',
  'serve-token-file': 'FILE',
  'index-file': 'FILE',
  'ca-file': 'PATH',
  proxy: 'URL',
  headers: '"NAME: VALUE"',
};

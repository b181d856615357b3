import type { CrawlerConfig } from '../model/config.js';
import { ConfigError, place, type ConfigErrorCode } from './config-error.js';
import { DEFAULT_CONFIG, FIELD_OF_KEY, KEYS } from './keys.js';
import type { ConfStatement, ConfValue } from './parse-conf.js';
import { BadValue } from './value-parsers.js';
import { isLoopbackHost } from './network-values.js';
import { didYouMean } from './wording.js';

/**
 * Values that win over Crawler.conf (from the command line, or a program). Every field given
 * replaces the file's, except `resolve` and `headers`, whose entries are added to the file's (as curl's).
 */
export type ConfigOverrides = { readonly [F in keyof CrawlerConfig]?: CrawlerConfig[F] };

export interface BuildOptions {
  /**
   * Whether the repository holds a crawl to resume or recrawl, which needs no seeds: the seeds an
   * earlier run read (from the configuration or an input file) are in its journal.
   */
  readonly canResume?: (repository: string) => boolean;
}

type MutableConfig = { -readonly [F in keyof CrawlerConfig]: CrawlerConfig[F] };

/**
 * Reads one key's value through the key table, turning a refusal into a {@link ConfigError}
 * placed by `where` (given the bad item's line, when a list item is at fault).
 *
 * @example
 * readKey('maxDepth', { kind: 'scalar', text: 'x', line: 0 }, () => '--max-depth', 'arg-bad-value')
 * //=> throws ConfigError('--max-depth: "x" is not a number for max-depth')
 */
export function readKey<F extends keyof CrawlerConfig>(
  field: F,
  value: ConfValue,
  where: (line: number | undefined) => string,
  code: ConfigErrorCode,
): CrawlerConfig[F] {
  const spec = KEYS[field];
  try {
    return spec.parse(value, spec.name);
  } catch (err) {
    if (err instanceof BadValue) throw new ConfigError(code, where(err.line), err.message);
    throw err;
  }
}

/**
 * The config from the statements of one file, then the overrides, over the defaults.
 * Throws a {@link ConfigError} for an unknown key, a bad value, a min-delay above max-delay, or
 * no starting points at all (no seed, no input file, nothing to resume); returns as warnings (`FILE:LINE: ...`, never logged here) a key
 * in another section than its own and a key set twice (the later value wins).
 *
 * @example
 * buildConfig(parseConf('<crawler-options>\nstarting-points = { "http://a.test/" };', 'c.conf'), 'c.conf', { maxDepth: 2 })
 * //=> { config: { startingPoints: ['http://a.test/'], maxDepth: 2, ... }, warnings: [] }
 */
export function buildConfig(
  statements: readonly ConfStatement[],
  file: string,
  overrides: ConfigOverrides = {},
  opts: BuildOptions = {},
): { config: CrawlerConfig; warnings: string[] } {
  const config: MutableConfig = { ...DEFAULT_CONFIG };
  const warnings: string[] = [];
  const lineOf = new Map<keyof CrawlerConfig, number>();
  for (const st of statements) {
    const at = place(file, st.line);
    const field = FIELD_OF_KEY.get(st.key);
    if (field === undefined) {
      const where = st.section === undefined ? '' : ` in <${st.section}>`;
      throw new ConfigError('conf-unknown-key', at, `unknown key "${st.key}"${where}${didYouMean(st.key, FIELD_OF_KEY.keys())}`);
    }
    const spec = KEYS[field];
    if (st.section !== undefined && st.section !== spec.section) {
      warnings.push(`${at}: ${spec.name} belongs in <${spec.section}>, not <${st.section}>; accepted`);
    }
    const earlier = lineOf.get(field);
    if (earlier !== undefined) warnings.push(`${at}: ${spec.name} is set again (first on line ${earlier}); this value wins`);
    lineOf.set(field, st.line);
    assign(config, field, readKey(field, st.value, (line) => place(file, line ?? st.line), 'conf-bad-value'));
  }
  for (const field of Object.keys(overrides) as (keyof CrawlerConfig)[]) {
    const value = overrides[field];
    if (field === 'resolve') config.resolve = [...config.resolve, ...(overrides.resolve ?? [])];
    else if (field === 'headers') config.headers = [...config.headers, ...(overrides.headers ?? [])];
    else assign(config, field, value as CrawlerConfig[typeof field]);
    lineOf.delete(field); // a flag set it: no line of the file is to blame
  }
  if (config.maxDelayMs > 0 && config.minDelayMs > config.maxDelayMs) {
    throw new ConfigError(
      'conf-bad-value',
      place(file, lineOf.get('maxDelayMs') ?? lineOf.get('minDelayMs')),
      `min-delay (${config.minDelayMs} ms) is above max-delay (${config.maxDelayMs} ms)`,
    );
  }
  if (config.minIntervalHours > config.maxIntervalHours) {
    throw new ConfigError(
      'conf-bad-value',
      place(file, lineOf.get('maxIntervalHours') ?? lineOf.get('minIntervalHours')),
      `min-interval (${config.minIntervalHours} hours) is above max-interval (${config.maxIntervalHours} hours)`,
    );
  }
  if (config.serve !== undefined && config.serveTokenFile === undefined && !isLoopbackHost(config.serve.host)) {
    throw new ConfigError(
      'conf-bad-value',
      // Set by the flag, not on a line of the file: the flag is to blame.
      lineOf.has('serve') ? place(file, lineOf.get('serve')) : '--serve',
      `serve on ${config.serve.host}, beyond loopback, needs serve-token-file: anyone who can reach it could stop the crawl`,
    );
  }
  if (config.startingPoints.length === 0 && config.inputFiles.length === 0 && !opts.canResume?.(config.repository)) {
    throw new ConfigError(
      'conf-no-seeds',
      place(file, lineOf.get('startingPoints')),
      'no starting points: set starting-points in <crawler-options> or pass --seed URL (or -i FILE)',
    );
  }
  return { config, warnings };
}

function assign<F extends keyof CrawlerConfig>(config: MutableConfig, field: F, value: CrawlerConfig[F]): void {
  config[field] = value;
}

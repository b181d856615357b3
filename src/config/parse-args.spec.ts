import { describe, expect, it } from 'vitest';
import type { ConfigOverrides } from './build-config.js';
import { ConfigError } from './config-error.js';
import { parseArgs } from './parse-args.js';

const overridesOf = (...args: string[]): ConfigOverrides => parseArgs(['crawl', ...args]).overrides;

function failure(argv: string[]): ConfigError {
  try {
    parseArgs(argv);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('parsed without error');
}

describe('parseArgs', () => {
  it.each<[string[], ConfigOverrides]>([
    [['--seed', 'http://a.test/'], { startingPoints: ['http://a.test/'] }],
    [['--max-pages', '-5'], { maxPageNumber: 0 }],
    [['--time-limit', '30'], { timeLimitMs: 30_000 }],
    [['--scope', 'host-scope'], { scope: 'host-scope' }],
    [['--traversal', 'dfs'], { traversal: 'dfs' }],
    [['--repository', 'out'], { repository: 'out' }],
    [['--index', '-'], { indexFile: '-' }],
    [['--format', 'edges'], { indexFormat: 'edges' }],
    [['--threads', '4'], { requestsInFlight: 4 }],
    [['--log-file', 'screen'], { logFile: 'screen' }],
    [['--log-level', '2'], { logLevel: 2 }],
    [['--resolve', 'a.test:80:127.0.0.1'], { resolve: [{ host: 'a.test', port: 80, address: '127.0.0.1' }] }],
    [['--user-agent', 'bot/2 (+http://x.test)'], { userAgent: 'bot/2 (+http://x.test)' }],
    [['--period', '0.5'], { periodHours: 0.5 }],
    [['--min-delay', '0', '--max-depth', '3'], { minDelayMs: 0, maxDepth: 3 }],
    [['--obey-rel-nofollow', 'false', '--max-crawl-delay', '2'], { obeyRelNofollow: false, maxCrawlDelayMs: 2000 }],
    [['--traversal-algorithm=dfs', '--max-page-number=7'], { traversal: 'dfs', maxPageNumber: 7 }],
    [['--user-agent=a=b'], { userAgent: 'a=b' }],
    [['--index-file='], { indexFile: undefined }],
    [['--Max-Depth', '1'], { maxDepth: 1 }],
    [['--threads', '2', '--threads', '3'], { requestsInFlight: 3 }],
    [['--insecure'], { insecure: true }],
    [['--insecure', 'site.conf', '--cookies', '--http2', 'off'], { insecure: true, cookies: true, http2: false }],
    [['--allow-private-addresses=no', '--insecure', '--seed', 'http://a.test/'], { allowPrivateAddresses: false, insecure: true, startingPoints: ['http://a.test/'] }],
    [['--header', 'X-A: 1', '--headers=X-B: 2'], { headers: [['x-a', '1'], ['x-b', '2']] }],
    [['--proxy', 'http://127.0.0.1:3128'], { proxy: 'http://127.0.0.1:3128' }],
  ])('crawl %j overrides %j', (args, expected) => {
    expect(overridesOf(...args)).toEqual(expected);
  });

  it('takes a true/false flag alone as true, and the next argument as a positional unless it is true or false', () => {
    expect(parseArgs(['crawl', '--cookies', 'site.conf'])).toMatchObject({ confPath: 'site.conf', overrides: { cookies: true } });
    expect(parseArgs(['crawl', '--cookies', 'false', 'site.conf'])).toMatchObject({ confPath: 'site.conf', overrides: { cookies: false } });
  });

  it('takes the next argument as the value of a switch that reads it (sitemaps: guess)', () => {
    expect(parseArgs(['crawl', '--sitemaps', 'guess', 'site.conf'])).toMatchObject({ confPath: 'site.conf', overrides: { sitemaps: 'guess' } });
    expect(parseArgs(['crawl', '--sitemaps', 'site.conf'])).toMatchObject({ confPath: 'site.conf', overrides: { sitemaps: true } });
    expect(parseArgs(['crawl', '--cookies', 'guess'])).toMatchObject({ confPath: 'guess', overrides: { cookies: true } });
  });

  it('collects repeated list flags, aliases included, in order', () => {
    const o = overridesOf('--seed', 'http://a.test/', '--starting-points=http://b.test/', '--resolve', 'a.test:80:[::1]',
      '--resolve=b.test:443:10.0.0.1', '--reject-list', '\\?', '--reject-list', '^#');
    expect(o.startingPoints).toEqual(['http://a.test/', 'http://b.test/']);
    expect(o.resolve).toEqual([{ host: 'a.test', port: 80, address: '::1' }, { host: 'b.test', port: 443, address: '10.0.0.1' }]);
    expect(o.rejectList).toEqual([/\?/, /^#/]);
  });

  it('reads -i and --input-file as wget does, repeatable, with - for stdin', () => {
    expect(overridesOf('-i', '-', '--input-file', 'a.txt', '--input-file=b.txt', '--input-files', 'c.txt').inputFiles).toEqual(['-', 'a.txt', 'b.txt', 'c.txt']);
  });

  it('reads the commands and their arguments', () => {
    expect(parseArgs(['crawl'])).toMatchObject({ command: 'crawl', confPath: undefined, watch: false, overrides: {} });
    expect(parseArgs(['crawl', 'site.conf', '--watch'])).toMatchObject({ command: 'crawl', confPath: 'site.conf', watch: true });
    expect(parseArgs(['run', 'pipelines/graph.ts', 'site.conf', '--threads', '2'])).toMatchObject({
      command: 'run', pipelinePath: 'pipelines/graph.ts', confPath: 'site.conf', overrides: { requestsInFlight: 2 },
    });
    expect(parseArgs(['run', 'graph'])).toMatchObject({ pipelinePath: 'graph', confPath: undefined });
    expect(parseArgs(['demo', '--traversal', 'dfs'])).toMatchObject({ command: 'demo', overrides: { traversal: 'dfs' } });
    expect(parseArgs(['report', 'demo-output'])).toMatchObject({ command: 'report', reportPath: 'demo-output' });
    expect(parseArgs(['merge', 'all', 'a', 'b', 'c'])).toMatchObject({ command: 'merge', mergePaths: ['all', 'a', 'b', 'c'] });
    expect(parseArgs(['crawl', 'site.conf', '--report'])).toMatchObject({ command: 'crawl', confPath: 'site.conf', report: true, watch: false });
    expect(parseArgs(['demo', '--report'])).toMatchObject({ command: 'demo', report: true });
    expect(parseArgs(['crawl', '--', '--odd.conf'])).toMatchObject({ confPath: '--odd.conf' });
  });

  it('reads pagerank options, with defaults', () => {
    expect(parseArgs(['pagerank', 'index.txt']).pagerank).toEqual({ top: 10, format: 'table', damping: 0.85 });
    expect(parseArgs(['pagerank', '-', '--top=0', '--format', 'JSONL', '--damping', '0.5'])).toMatchObject({
      command: 'pagerank', indexPath: '-', pagerank: { top: 0, format: 'jsonl', damping: 0.5 },
    });
  });

  it.each([
    [[], 'help'], [['--help'], 'help'], [['-h'], 'help'], [['help'], 'help'], [['crawl', 'x.conf', '--help'], 'help'],
    [['--version'], 'version'], [['-V'], 'version'], [['pagerank', '--version'], 'version'],
  ])('%j asks for %s', (argv, command) => {
    expect(parseArgs(argv).command).toBe(command);
  });

  it.each([
    [['help', 'crawl'], 'crawl'], [['crawl', 'x.conf', '--help'], 'crawl'], [['pagerank', '-h'], 'pagerank'],
    [['help'], undefined], [['--help'], undefined], [['help', '--help'], undefined],
  ])('%j describes %s', (argv, topic) => {
    expect(parseArgs(argv)).toMatchObject({ command: 'help', helpTopic: topic });
  });

  it.each([
    [['help', 'fetch'], 'arg-unknown', 'unknown command "fetch" (expected crawl, run, pagerank, report, merge or demo; see --help)'],
    [['help', 'crawl', 'run'], 'arg-extra', 'unexpected argument "run" (usage: tarantula help [COMMAND])'],
    [['fetch'], 'arg-unknown', 'unknown command "fetch" (expected crawl, run, pagerank, report, merge or demo; see --help)'],
    [['crawl', '--max-pagez', '3'], 'arg-unknown', '--max-pagez: unknown option for crawl; did you mean "--max-pages"?'],
    [['crawl', '-x'], 'arg-unknown', '-x: unknown option for crawl'],
    [['run', 'p.ts', '--watch'], 'arg-unknown', '--watch: unknown option for run'],
    [['pagerank', 'i.txt', '--threads', '2'], 'arg-unknown', '--threads: unknown option for pagerank'],
    [['crawl', '--seed'], 'arg-missing', '--seed: missing value'],
    [['crawl', '--index', '--format', 'csv'], 'arg-missing', '--index: missing value'],
    [['crawl', '--max-depth', 'abc'], 'arg-bad-value', '--max-depth: "abc" is not a number for max-depth'],
    [['crawl', '--seed', '-'], 'arg-bad-value', '--seed: "-" is not an absolute http(s) URL in starting-points; to read URLs from stdin, use -i - (--input-file -)'],
    [['crawl', '-i'], 'arg-missing', '--input-file: missing value'],
    [['crawl', '--seed=ftp://a.test/'], 'arg-bad-value', '--seed: "ftp://a.test/" is not an absolute http(s) URL in starting-points'],
    [['crawl', '--scope', 'galaxy'], 'arg-bad-value', '--scope: unknown scope "galaxy" (expected free-spanning, domain-scope, host-scope or path-scope)'],
    [['crawl', '--log-level', '3'], 'arg-bad-value', '--log-level: log-level must be at most 2, not 3'],
    [['crawl', '--watch=yes'], 'arg-bad-value', '--watch: takes no value'],
    [['crawl', '--report=yes'], 'arg-bad-value', '--report: takes no value'],
    [['run', 'p.ts', '--report'], 'arg-unknown', '--report: unknown option for run'],
    [['report', 'out', '--threads', '2'], 'arg-unknown', '--threads: unknown option for report'],
    [['report'], 'arg-missing', 'usage: tarantula report REPOSITORY (see --help)'],
    [['report', 'a', 'b'], 'arg-extra', 'unexpected argument "b" (usage: tarantula report REPOSITORY)'],
    [['merge', 'into'], 'arg-missing', 'usage: tarantula merge INTO REPOSITORY… (see --help)'],
    [['merge', 'into', 'a', '--threads', '2'], 'arg-unknown', '--threads: unknown option for merge'],
    [['pagerank', 'i', '--damping', '1'], 'arg-bad-value', '--damping: damping must be below 1'],
    [['pagerank', 'i', '--format', 'xml'], 'arg-bad-value', '--format: unknown format "xml" (expected table, tsv or jsonl)'],
    [['pagerank', 'i', '--top', '-1'], 'arg-bad-value', '--top: top must be at least 0, not -1'],
    [['pagerank'], 'arg-missing', 'usage: tarantula pagerank INDEX (see --help)'],
    [['run'], 'arg-missing', 'usage: tarantula run PIPELINE [CONF] (see --help)'],
    [['crawl', 'a.conf', 'b.conf'], 'arg-extra', 'unexpected argument "b.conf" (usage: tarantula crawl [CONF])'],
    [['demo', 'x'], 'arg-extra', 'unexpected argument "x" (usage: tarantula demo)'],
  ])('refuses %j with %s', (argv, code, message) => {
    const err = failure(argv);
    expect(err.code).toBe(code);
    expect(err.message).toBe(message);
  });
});

import { describe, expect, it } from 'vitest';
import { VERSION } from './version.js';
import type { CrawlerConfig } from '../model/config.js';
import { DEFAULT_CONFIG, FIELD_OF_KEY, KEYS } from './keys.js';
import type { ConfValue } from './parse-conf.js';
import { SECTIONS } from './sections.js';

const scalar = (text: string): ConfValue => ({ kind: 'scalar', text, line: 1 });
const list = (...texts: string[]): ConfValue => ({ kind: 'list', items: texts.map((text) => ({ text, line: 1 })), line: 1 });

/** For every field: a good value and what it reads as, then a bad value and the message it gets. */
const CASES: { readonly [F in keyof CrawlerConfig]: readonly [ConfValue, CrawlerConfig[F], ConfValue, string] } = {
  startingPoints: [list('http://a.test/', 'HTTPS://B.test:8080/x'), ['http://a.test/', 'HTTPS://B.test:8080/x'], list('ftp://a.test/'), '"ftp://a.test/" is not an absolute http(s) URL in starting-points'],
  inputFiles: [list('urls.txt', '-'), ['urls.txt', '-'], list('a.txt', ''), 'an empty file name in input-files'],
  acceptList: [list('\\.html?$'), [/\.html?$/], list('('), 'bad regular expression "(": Unterminated group'],
  rejectList: [scalar('^#'), [/^#/], list('[z-a]'), 'bad regular expression "[z-a]": Range out of order in character class'],
  maxPageNumber: [scalar('-1'), 0, scalar('1e3'), '"1e3" is not a number for max-page-number'],
  scope: [scalar('Path-Scope'), 'path-scope', scalar('galaxy'), 'unknown scope "galaxy" (expected free-spanning, domain-scope, host-scope or path-scope)'],
  traversal: [scalar('DFS'), 'dfs', scalar('random'), 'unknown traversal-algorithm "random" (expected bfs or dfs)'],
  repository: [scalar('./out'), './out', scalar(''), 'repository must not be empty'],
  timeLimitMs: [scalar('90'), 90_000, scalar('1.5'), '"1.5" is not a whole number for time-limit'],
  maxDepth: [scalar('0'), 0, scalar('abc'), '"abc" is not a number for max-depth'],
  maxPagesPerHost: [scalar('+7'), 7, scalar('-1'), 'max-pages-per-host must be at least 0, not -1'],
  maxUrlLength: [scalar('100'), 100, list('1'), 'max-url-length takes a single value, not a list'],
  maxPathRepetition: [scalar('2'), 2, scalar('two'), '"two" is not a number for max-path-repetition'],
  maxLinksPerPage: [scalar('10'), 10, scalar('1 0'), '"1 0" is not a number for max-links-per-page'],
  priorityLevels: [scalar('1'), 1, scalar('17'), 'priority-levels must be at most 16, not 17'],
  memoryBudgetMb: [scalar('256'), 256, scalar('-1'), 'memory-budget must be at least 0, not -1'],
  nearDuplicateBits: [scalar('0'), 0, scalar('7'), 'near-duplicate-bits must be at most 6, not 7'],
  skipNearDuplicates: [scalar('true'), true, scalar('yes please'), '"yes please" is not true or false for skip-near-duplicates'],
  sitemaps: [scalar('Guess'), 'guess', scalar('sometimes'), '"sometimes" is not true, false or guess for sitemaps'],
  delayFactor: [scalar('0.5'), 0.5, scalar('-0.5'), 'delay-factor must be at least 0, not -0.5'],
  minDelayMs: [scalar('0'), 0, scalar('0.5'), '"0.5" is not a whole number for min-delay'],
  maxDelayMs: [scalar('1000'), 1000, scalar(''), '"" is not a number for max-delay'],
  maxPerHost: [scalar('2'), 2, scalar('x'), '"x" is not a number for max-per-host'],
  maxCrawlDelayMs: [scalar('5'), 5000, scalar('5s'), '"5s" is not a number for max-crawl-delay'],
  robotsTtlMs: [scalar('60'), 60_000, scalar('-60'), 'robots-ttl must be at least 0, not -60'],
  idleHosts: [scalar('10'), 10, scalar('0'), 'idle-hosts must be at least 1, not 0'],
  obeyRelNofollow: [scalar('FALSE'), false, scalar('maybe'), '"maybe" is not true or false for obey-rel-nofollow'],
  userAgent: [scalar('bot/1 (+http://x.test)'), 'bot/1 (+http://x.test)', list('a', 'b'), 'user-agent takes a single value, not a list'],
  resolve: [list('WWW.A.test:80:127.0.0.1', 'b.test:8443:[::1]'), [{ host: 'www.a.test', port: 80, address: '127.0.0.1' }, { host: 'b.test', port: 8443, address: '::1' }], list('a.test:80'), '"a.test:80" is not HOST:PORT:ADDRESS in resolve'],
  connectTimeoutMs: [scalar('500'), 500, scalar('5e2'), '"5e2" is not a number for connect-timeout'],
  headerTimeoutMs: [scalar('500'), 500, scalar('-5'), 'header-timeout must be at least 0, not -5'],
  bodyTimeoutMs: [scalar('500'), 500, scalar('1,5'), '"1,5" is not a number for body-timeout'],
  downloadTimeoutMs: [scalar('1200000'), 1_200_000, scalar('-1'), 'download-timeout must be at least 0, not -1'],
  maxBodySize: [scalar('1024'), 1024, scalar('1k'), '"1k" is not a number for max-body-size'],
  maxDecodedSize: [scalar('2048'), 2048, scalar('0x10'), '"0x10" is not a number for max-decoded-size'],
  maxRedirects: [scalar('0'), 0, scalar('-1'), 'max-redirects must be at least 0, not -1'],
  maxRetries: [scalar('3'), 3, scalar('3.0'), '"3.0" is not a whole number for max-retries'],
  allowPrivateAddresses: [scalar('yes'), true, scalar('sometimes'), '"sometimes" is not true or false for allow-private-addresses'],
  caFile: [scalar(''), undefined, scalar('/nonexistent/ca.pem'), 'cannot read ca-file "/nonexistent/ca.pem": ENOENT'],
  insecure: [scalar('false'), false, list('true'), 'insecure takes a single value, not a list'],
  proxy: [scalar('proxy.test:3128'), 'http://proxy.test:3128', scalar('socks4://p.test:1080'), 'proxy "socks4://p.test:1080": only http:// and https:// proxies are supported'],
  http2: [scalar('on'), true, scalar('h2'), '"h2" is not true or false for http2'],
  cookies: [scalar('true'), true, scalar('jar'), '"jar" is not true or false for cookies'],
  headers: [list('X-Token: abc:def', 'Accept-Language:  el, en'), [['x-token', 'abc:def'], ['accept-language', 'el, en']], list('User-Agent: me'), 'User-Agent cannot be set in headers: set user-agent instead'],
  logFile: [scalar('crawl.log'), 'crawl.log', scalar(''), 'log-file must not be empty'],
  logLevel: [scalar('2'), 2, scalar('3'), 'log-level must be at most 2, not 3'],
  serve: [scalar('[::1]:9464'), { host: '::1', port: 9464 }, scalar('localhost:70000'), '"localhost:70000" is not [HOST:]PORT for serve (e.g. 9464, 127.0.0.1:9464, [::1]:9464)'],
  serveTokenFile: [scalar('package.json'), 'package.json', scalar('no-such-token.txt'), 'cannot read serve-token-file "no-such-token.txt": ENOENT'],
  periodHours: [scalar('.25'), 0.25, scalar('soon'), '"soon" is not a number for period'],
  recrawlPolicy: [scalar('Adaptive'), 'adaptive', scalar('smart'), 'unknown recrawl-policy "smart" (expected fixed or adaptive)'],
  minIntervalHours: [scalar('0.01'), 0.01, scalar('0'), 'min-interval must be at least 0.001, not 0'],
  maxIntervalHours: [scalar('48'), 48, scalar('a week'), '"a week" is not a number for max-interval'],
  requestsInFlight: [scalar('1'), 1, scalar('0'), 'threads must be at least 1, not 0'],
  documentThreads: [scalar('2'), 2, scalar('-1'), 'document-threads must be at least 0, not -1'],
  render: [scalar('Auto'), 'auto', scalar('sometimes'), 'unknown render "sometimes" (expected never, auto or always)'],
  renderThirdParty: [scalar('true'), true, scalar('maybe'), '"maybe" is not true or false for render-third-party'],
  renderThreads: [scalar('2'), 2, scalar('0'), 'render-threads must be at least 1, not 0'],
  renderTimeoutMs: [scalar('5000'), 5000, scalar('0'), 'render-timeout must be at least 1, not 0'],
  chromiumPath: [scalar('/usr/bin/chromium'), '/usr/bin/chromium', list(), 'chromium-path takes a single value, not a list'],
  indexFile: [scalar('-'), '-', list(), 'index-file takes a single value, not a list'],
  indexFormat: [scalar('JSONL'), 'jsonl', scalar('xml'), 'unknown index-format "xml" (expected seed, jsonl, csv or edges)'],
  warcFile: [scalar('out/crawl'), 'out/crawl', list('a'), 'warc-file takes a single value, not a list'],
  warcMaxSize: [scalar('5000000'), 5_000_000, scalar('1GB'), '"1GB" is not a number for warc-max-size'],
  frontier: [scalar('redis://10.0.0.5:6379/2'), 'redis://10.0.0.5:6379/2', scalar('http://10.0.0.5/'), '"http://10.0.0.5/" is not a redis://HOST:PORT/DB URL for frontier'],
  crawlId: [scalar('news-2'), 'news-2', scalar('a}b'), '"a}b" is not a name for crawl-id (letters, digits, ".", "_" and "-")'],
  leaseMs: [scalar('2.5'), 2500, scalar('0'), 'lease must be at least 1, not 0'],
  workers: [scalar('4'), 4, scalar('0'), 'workers must be at least 1, not 0'],
};

describe('KEYS', () => {
  const fields = Object.keys(KEYS) as (keyof CrawlerConfig)[];

  it.each(fields)('%s reads a good value in the config unit and refuses a bad one', (field) => {
    const spec = KEYS[field];
    const [good, expected, bad, message] = CASES[field];
    expect(spec.parse(good, spec.name)).toEqual(expected);
    expect(() => spec.parse(bad, spec.name)).toThrow(message);
  });

  it('has one key name per field, in a known section, with a unit and a doc line', () => {
    expect(FIELD_OF_KEY.size).toBe(fields.length);
    for (const field of fields) {
      const spec = KEYS[field];
      expect(FIELD_OF_KEY.get(spec.name)).toBe(field);
      expect(spec.name).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      expect(SECTIONS).toContain(spec.section);
      expect(spec.unit).not.toBe('');
      expect(spec.doc).toMatch(/^[A-Z0-9].*\.$/);
    }
  });

  it('gives the defaults of the brief, in config units', () => {
    expect(DEFAULT_CONFIG).toEqual({
      startingPoints: [], inputFiles: [], acceptList: [], rejectList: [], maxPageNumber: 0, scope: 'domain-scope',
      traversal: 'bfs', repository: './repository', timeLimitMs: 0, maxDepth: 20, maxPagesPerHost: 0,
      maxUrlLength: 2048, maxPathRepetition: 3, maxLinksPerPage: 100_000, priorityLevels: 4, memoryBudgetMb: 64, nearDuplicateBits: 4, skipNearDuplicates: false, sitemaps: true, delayFactor: 5, minDelayMs: 3000,
      maxDelayMs: 30000, maxPerHost: 1, maxCrawlDelayMs: 60_000, robotsTtlMs: 86_400_000, idleHosts: 256, obeyRelNofollow: true,
      userAgent: `tarantula/${VERSION}`, resolve: [], connectTimeoutMs: 10000, headerTimeoutMs: 30000,
      bodyTimeoutMs: 30000, downloadTimeoutMs: 600_000, maxBodySize: 10_485_760, maxDecodedSize: 20_971_520, maxRedirects: 5, maxRetries: 2,
      allowPrivateAddresses: false, caFile: undefined, insecure: false, proxy: undefined, http2: false, cookies: false, headers: [],
      logFile: 'screen', logLevel: 1, serve: undefined, serveTokenFile: undefined, periodHours: 72, recrawlPolicy: 'fixed', minIntervalHours: 1, maxIntervalHours: 720, requestsInFlight: 16, documentThreads: 0,
      render: 'never', renderThirdParty: false, renderThreads: 1, renderTimeoutMs: 20000, chromiumPath: undefined, indexFile: undefined, indexFormat: 'seed',
      warcFile: undefined, warcMaxSize: 1_000_000_000,
      frontier: undefined, crawlId: undefined, leaseMs: 60_000, workers: 1,
    });
    expect(Object.isFrozen(DEFAULT_CONFIG)).toBe(true);
  });

  it('reads an empty user-agent or index-file as the default', () => {
    expect(KEYS.userAgent.parse(scalar(''), 'user-agent')).toBe(`tarantula/${VERSION}`);
    expect(KEYS.indexFile.parse(scalar(''), 'index-file')).toBeUndefined();
  });

  it('checks resolve ports and addresses', () => {
    const parse = (t: string) => () => KEYS.resolve.parse(list(t), 'resolve');
    expect(parse('a.test:0:127.0.0.1')).toThrow('bad port 0 in resolve entry "a.test:0:127.0.0.1"');
    expect(parse('a.test:80:999.1.1.1')).toThrow('"999.1.1.1" is not an IP address in resolve entry "a.test:80:999.1.1.1"');
    expect(parse('a.test:80:[127.0.0.1')).toThrow('is not an IP address');
  });

  it('names the line of the bad item of a multi-line list', () => {
    const value: ConfValue = { kind: 'list', line: 3, items: [{ text: 'http://a.test/', line: 4 }, { text: 'nope', line: 5 }] };
    expect(() => KEYS.startingPoints.parse(value, 'starting-points')).toThrow(expect.objectContaining({ line: 5 }));
  });
});

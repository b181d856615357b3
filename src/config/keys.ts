import { VERSION } from './version.js';
import { DEFAULT_MEMORY_BUDGET_MB, MAX_NEAR_DUPLICATE_BITS, MAX_PRIORITY_LEVELS, type CrawlerConfig, type IndexFormat, type RecrawlPolicy, type RenderMode, type ScopeMode, type Traversal } from '../model/config.js';
import type { ConfValue } from './parse-conf.js';
import type { SectionName } from './sections.js';
import {
  booleanOr,
  booleanValue,
  choiceOf,
  numberOf,
  optionalText,
  nameValue,
  redisUrl,
  regexList,
  pathList,
  resolveList,
  textValue,
  repositoryFolder,
  urlList,
  type ValueParser,
} from './value-parsers.js';
import { headerList, pemFile, proxyUrl, serveAddress, tokenFile } from './network-values.js';

/** How a key is written; `list` keys take `{ ... }` and their flags may be repeated. */
export type KeyKind = 'list' | 'integer' | 'number' | 'choice' | 'boolean' | 'string';

/** One Crawler.conf key: where it lives, how it is read, and what it means. */
export interface KeySpec<F extends keyof CrawlerConfig> {
  /** As written in Crawler.conf (lowercase) and as a flag (`--NAME`). */
  readonly name: string;
  readonly section: SectionName;
  readonly kind: KeyKind;
  /** The unit or the values allowed, as the shipped Crawler.conf documents them. */
  readonly unit: string;
  /** The default as Crawler.conf would write it, in the key's unit (`60` seconds, `{ }`). */
  readonly default: string;
  readonly doc: string;
  /** Checks the value and converts it to the config's unit. */
  readonly parse: ValueParser<CrawlerConfig[F]>;
}

const SCOPES: readonly ScopeMode[] = ['free-spanning', 'domain-scope', 'host-scope', 'path-scope'];
const TRAVERSALS: readonly Traversal[] = ['bfs', 'dfs'];
const INDEX_FORMATS: readonly IndexFormat[] = ['seed', 'jsonl', 'csv', 'edges'];
const RECRAWL_POLICIES: readonly RecrawlPolicy[] = ['fixed', 'adaptive'];
const RENDER_MODES: readonly RenderMode[] = ['never', 'auto', 'always'];
const USER_AGENT = `tarantula/${VERSION}`;
const count = numberOf();
const seconds = numberOf({ factor: 1000 });

/**
 * Every key of Crawler.conf (SPEC §3), one entry per field of {@link CrawlerConfig}: the type
 * makes sure no field lacks a key. Validation, conversion, defaults, the `--KEY` flags and the
 * usage text all read this table. For every limit, 0 means no limit.
 *
 * @example
 * KEYS.timeLimitMs.parse({ kind: 'scalar', text: '60', line: 1 }, 'time-limit') //=> 60000
 */
export const KEYS: { readonly [F in keyof CrawlerConfig]: KeySpec<F> } = {
  startingPoints: {
    name: 'starting-points', section: 'crawler-options', kind: 'list', unit: 'absolute http(s) URLs',
    default: '{ }', parse: urlList,
    doc: 'The seeds, where the crawl starts (depth 0). --seed replaces them.',
  },
  inputFiles: {
    name: 'input-files', section: 'crawler-options', kind: 'list', unit: 'files of URLs (- = stdin)',
    default: '{ }', parse: pathList,
    doc: 'More seeds, read while the crawl runs: a URL a line, or an index in the seed or jsonl format. -i FILE adds one.',
  },
  acceptList: {
    name: 'accept-list', section: 'crawler-options', kind: 'list', unit: 'JavaScript regular expressions',
    default: '{ }', parse: regexList,
    doc: 'When not empty, only URLs matching one of these (or directory-like URLs) are taken. No lookaround, backreference or repeat count above 16: a pattern must run in linear time.',
  },
  rejectList: {
    name: 'reject-list', section: 'crawler-options', kind: 'list', unit: 'JavaScript regular expressions',
    default: '{ }', parse: regexList,
    doc: 'URLs matching any of these are dropped (tested on the link as written and normalized). Linear-time patterns only, as accept-list.',
  },
  maxPageNumber: {
    name: 'max-page-number', section: 'crawler-options', kind: 'integer', unit: 'documents',
    default: '0', parse: numberOf({ belowMinIsZero: true }),
    doc: 'Stop after fetching this many documents; 0 or negative: no limit.',
  },
  scope: {
    name: 'scope', section: 'crawler-options', kind: 'choice', unit: SCOPES.join(', '),
    default: 'domain-scope', parse: choiceOf(SCOPES),
    doc: 'Which hosts and paths may be crawled, relative to the seeds.',
  },
  traversal: {
    name: 'traversal-algorithm', section: 'crawler-options', kind: 'choice', unit: TRAVERSALS.join(', '),
    default: 'bfs', parse: choiceOf(TRAVERSALS),
    doc: 'Breadth-first or depth-first order.',
  },
  repository: {
    name: 'repository', section: 'crawler-options', kind: 'string', unit: 'folder',
    default: './repository', parse: repositoryFolder,
    doc: 'Where the mirror, the index and the crawl state are kept (relative to the current directory); not the root, a system folder or your home folder itself.',
  },
  timeLimitMs: {
    name: 'time-limit', section: 'crawler-options', kind: 'integer', unit: 'seconds',
    default: '0', parse: seconds,
    doc: 'Stop the crawl after this long.',
  },
  maxDepth: {
    name: 'max-depth', section: 'crawler-options', kind: 'integer', unit: 'links from a seed',
    default: '20', parse: count,
    doc: 'Links deeper than this are not followed; seeds are depth 0.',
  },
  maxPagesPerHost: {
    name: 'max-pages-per-host', section: 'crawler-options', kind: 'integer', unit: 'documents',
    default: '0', parse: count,
    doc: 'Documents fetched from one host at most.',
  },
  maxUrlLength: {
    name: 'max-url-length', section: 'crawler-options', kind: 'integer', unit: 'characters',
    default: '2048', parse: count,
    doc: 'Normalized URLs longer than this are dropped.',
  },
  maxPathRepetition: {
    name: 'max-path-repetition', section: 'crawler-options', kind: 'integer', unit: 'times',
    default: '3', parse: count,
    doc: 'URLs in which one path segment repeats more often than this are dropped (a spider trap).',
  },
  maxLinksPerPage: {
    name: 'max-links-per-page', section: 'crawler-options', kind: 'integer', unit: 'links',
    default: '100000', parse: count,
    doc: 'Distinct links taken from one page at most, against pages that are link traps; a page it cuts is named in a warning. Real pages stay far below it: the largest index of the Rust documentation links 24,045 pages.',
  },
  priorityLevels: {
    name: 'priority-levels', section: 'crawler-options', kind: 'integer', unit: `front queues per host (1 to ${MAX_PRIORITY_LEVELS})`,
    default: '4', parse: numberOf({ min: 1, max: MAX_PRIORITY_LEVELS }),
    doc: 'Priority levels of the frontier: higher levels are taken first, more often, never starving the lowest. 1: plain breadth- or depth-first.',
  },
  memoryBudgetMb: {
    name: 'memory-budget', section: 'crawler-options', kind: 'integer', unit: 'MB',
    default: String(DEFAULT_MEMORY_BUDGET_MB), parse: count,
    doc: 'Memory the pending URLs, the seen-set and the per-page tables may hold together; past their share of it they spill to files in the crawl state. 0: as little as they can.',
  },
  nearDuplicateBits: {
    name: 'near-duplicate-bits', section: 'crawler-options', kind: 'integer', unit: `bits of a 64-bit SimHash (0 to ${MAX_NEAR_DUPLICATE_BITS})`,
    default: '4', parse: numberOf({ max: MAX_NEAR_DUPLICATE_BITS }),
    doc: 'An HTML page whose SimHash differs from an earlier page\'s in at most this many bits is a near-duplicate of it (jsonl nearDuplicateOf).',
  },
  skipNearDuplicates: {
    name: 'skip-near-duplicates', section: 'crawler-options', kind: 'boolean', unit: 'true, false',
    default: 'false', parse: booleanValue,
    doc: 'Do not follow the links of a near-duplicate (it is still recorded and stored).',
  },
  sitemaps: {
    name: 'sitemaps', section: 'crawler-options', kind: 'boolean', unit: 'true, false, guess',
    default: 'true', parse: booleanOr('guess'),
    doc: 'Read the sitemaps that the robots.txt of every host in scope names (Sitemap: lines) and crawl the URLs they list; guess: also ask every such host for /sitemap.xml; false: read none.',
  },
  delayFactor: {
    name: 'delay-factor', section: 'politeness-options', kind: 'number', unit: 'times the last fetch',
    default: '5', parse: numberOf({ fraction: true }),
    doc: 'Wait this many times the duration of the last fetch before the next request to that host.',
  },
  minDelayMs: {
    name: 'min-delay', section: 'politeness-options', kind: 'integer', unit: 'milliseconds',
    default: '3000', parse: count,
    doc: 'The wait between two requests to one host is at least this.',
  },
  maxDelayMs: {
    name: 'max-delay', section: 'politeness-options', kind: 'integer', unit: 'milliseconds',
    default: '30000', parse: count,
    doc: 'The wait between two requests to one host is at most this (robots.txt Crawl-delay may exceed it).',
  },
  maxPerHost: {
    name: 'max-per-host', section: 'politeness-options', kind: 'integer', unit: 'requests',
    default: '1', parse: count,
    doc: 'Requests in flight to one host at once.',
  },
  maxCrawlDelayMs: {
    name: 'max-crawl-delay', section: 'politeness-options', kind: 'integer', unit: 'seconds',
    default: '60', parse: seconds,
    doc: 'A host whose robots.txt asks for a longer Crawl-delay is skipped.',
  },
  robotsTtlMs: {
    name: 'robots-ttl', section: 'politeness-options', kind: 'integer', unit: 'seconds',
    default: '86400', parse: seconds,
    doc: 'How long a robots.txt stays cached.',
  },
  idleHosts: {
    name: 'idle-hosts', section: 'politeness-options', kind: 'integer', unit: 'hosts',
    default: '256', parse: numberOf({ min: 1 }),
    doc: 'Hosts the crawl is not fetching from now that keep their connections open and their robots.txt rules compiled; beyond them the least recently used close their connections and keep their rules compact (a few bytes a host), so a crawl of many hosts stays small.',
  },
  obeyRelNofollow: {
    name: 'obey-rel-nofollow', section: 'politeness-options', kind: 'boolean', unit: 'true, false',
    default: 'true', parse: booleanValue,
    doc: 'Do not follow links marked rel="nofollow".',
  },
  userAgent: {
    name: 'user-agent', section: 'fetch-options', kind: 'string', unit: 'string',
    default: USER_AGENT, parse: (v, key) => optionalText(v, key) ?? USER_AGENT,
    doc: 'The User-Agent header; its first product token is the name matched in robots.txt. Empty: the default.',
  },
  resolve: {
    name: 'resolve', section: 'fetch-options', kind: 'list', unit: 'HOST:PORT:ADDRESS entries',
    default: '{ }', parse: resolveList,
    doc: 'Connect to ADDRESS for HOST:PORT instead of asking DNS, as curl --resolve. --resolve adds to them.',
  },
  connectTimeoutMs: {
    name: 'connect-timeout', section: 'fetch-options', kind: 'integer', unit: 'milliseconds',
    default: '10000', parse: count,
    doc: 'Give up connecting after this long.',
  },
  headerTimeoutMs: {
    name: 'header-timeout', section: 'fetch-options', kind: 'integer', unit: 'milliseconds',
    default: '30000', parse: count,
    doc: 'Give up waiting for the response headers after this long.',
  },
  bodyTimeoutMs: {
    name: 'body-timeout', section: 'fetch-options', kind: 'integer', unit: 'milliseconds',
    default: '30000', parse: count,
    doc: 'Give up when the body stalls for this long.',
  },
  downloadTimeoutMs: {
    name: 'download-timeout', section: 'fetch-options', kind: 'integer', unit: 'milliseconds',
    default: '600000', parse: count,
    doc:
      'Give up on a download (connection, headers and body) not over this long after it began, however steadily its body trickles in: ' +
      'the page fails with download-timeout, not retried; robots.txt and sitemaps too. 10 minutes lets a whole max-body-size (10 MiB) ' +
      'through at about 140 kbit/s, a slow but honest link, and keeps a server that drips a byte a second from holding a slot for months ' +
      '(Heritrix allows 20 minutes). 0: no limit.',
  },
  maxBodySize: {
    name: 'max-body-size', section: 'fetch-options', kind: 'integer', unit: 'bytes',
    default: '10485760', parse: count,
    doc: 'Bodies are cut at this size (as received, before decompression).',
  },
  maxDecodedSize: {
    name: 'max-decoded-size', section: 'fetch-options', kind: 'integer', unit: 'bytes',
    default: '20971520', parse: count,
    doc: 'Decompressed bodies are cut at this size.',
  },
  maxRedirects: {
    name: 'max-redirects', section: 'fetch-options', kind: 'integer', unit: 'redirects',
    default: '5', parse: count,
    doc: 'Redirects followed from one URL at most.',
  },
  maxRetries: {
    name: 'max-retries', section: 'fetch-options', kind: 'integer', unit: 'retries',
    default: '2', parse: count,
    doc: 'Retries, with backoff, after a network error, a 5xx or a 429.',
  },
  allowPrivateAddresses: {
    name: 'allow-private-addresses', section: 'fetch-options', kind: 'boolean', unit: 'true, false',
    default: 'false', parse: booleanValue,
    doc: 'Allow connections to loopback, private, link-local, CGNAT, multicast and reserved addresses (refused by default, except a seed host’s and a resolve entry’s).',
  },
  caFile: {
    name: 'ca-file', section: 'fetch-options', kind: 'string', unit: 'path of PEM certificates, or empty',
    default: '""', parse: pemFile,
    doc: 'Certificate authorities trusted on top of the usual ones.',
  },
  insecure: {
    name: 'insecure', section: 'fetch-options', kind: 'boolean', unit: 'true, false',
    default: 'false', parse: booleanValue,
    doc: 'DANGEROUS: do not verify TLS certificates (anyone on the path can read and change the pages).',
  },
  proxy: {
    name: 'proxy', section: 'fetch-options', kind: 'string', unit: 'http(s)://[user:password@]host:port, or empty',
    default: '""', parse: proxyUrl,
    doc: 'The proxy of every request, as curl --proxy; empty: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY; NO_PROXY applies to both.',
  },
  http2: {
    name: 'http2', section: 'fetch-options', kind: 'boolean', unit: 'true, false',
    default: 'false', parse: booleanValue,
    doc: 'Offer HTTP/2 to https servers (they choose); requests in flight per host stay max-per-host.',
  },
  cookies: {
    name: 'cookies', section: 'fetch-options', kind: 'boolean', unit: 'true, false',
    default: 'false', parse: booleanValue,
    doc: 'Keep the cookies servers set (RFC 6265) for the crawl and its resume, in REPOSITORY/.tarantula/cookies.json.',
  },
  headers: {
    name: 'headers', section: 'fetch-options', kind: 'list', unit: '"Name: value" items',
    default: '{ }', parse: headerList,
    doc: 'Headers added to every request, as curl -H. --header adds to them.',
  },
  logFile: {
    name: 'log-file', section: 'logging', kind: 'string', unit: 'path, or screen (stderr)',
    default: 'screen', parse: textValue,
    doc: 'Where the log goes; its folders are made, and a file that cannot be written ends the command at once.',
  },
  logLevel: {
    name: 'log-level', section: 'logging', kind: 'choice', unit: '0, 1, 2',
    default: '1', parse: numberOf({ max: 2 }) as ValueParser<0 | 1 | 2>,
    doc: '0 essential only; 1 a line per fetched page; 2 debug, with the reason each URL was dropped.',
  },
  serve: {
    name: 'serve', section: 'logging', kind: 'string', unit: '[HOST:]PORT, or empty',
    default: '""', parse: serveAddress,
    doc: 'While the crawl runs, serve /metrics (Prometheus), /status, a live dashboard and the control API on this address (HOST 127.0.0.1 when left out); empty: off.',
  },
  serveTokenFile: {
    name: 'serve-token-file', section: 'logging', kind: 'string', unit: 'path, or empty',
    default: '""', parse: tokenFile,
    doc: 'The bearer token of the control API (its first line); empty: a new one is made at start in REPOSITORY/.tarantula/serve-token and logged. Required to serve beyond loopback.',
  },
  periodHours: {
    name: 'period', section: 'recrawling-options', kind: 'number', unit: 'hours',
    default: '72', parse: numberOf({ fraction: true }),
    doc: 'With --watch, recrawl this long after the start of the last crawl; with recrawl-policy = adaptive, a new page\'s first interval.',
  },
  recrawlPolicy: {
    name: 'recrawl-policy', section: 'recrawling-options', kind: 'choice', unit: RECRAWL_POLICIES.join(', '),
    default: 'fixed', parse: choiceOf(RECRAWL_POLICIES),
    doc: 'Fixed: a recrawl requests every page; adaptive: each page has its own interval and a recrawl requests only the pages due.',
  },
  minIntervalHours: {
    name: 'min-interval', section: 'recrawling-options', kind: 'number', unit: 'hours',
    default: '1', parse: numberOf({ fraction: true, min: 0.001 }),
    doc: 'Adaptive recrawl: a page that changes every time is still requested at most this often (at least 0.001: 3.6 s).',
  },
  maxIntervalHours: {
    name: 'max-interval', section: 'recrawling-options', kind: 'number', unit: 'hours',
    default: '720', parse: numberOf({ fraction: true }),
    doc: 'Adaptive recrawl: a page that never changes is still requested at least this often.',
  },
  requestsInFlight: {
    name: 'threads', section: 'multithreading-options', kind: 'integer', unit: 'requests',
    default: '16', parse: numberOf({ min: 1 }),
    doc: 'Requests in flight overall, per worker process with a shared frontier (at least 1).',
  },
  documentThreads: {
    name: 'document-threads', section: 'multithreading-options', kind: 'integer', unit: 'worker threads, or 0',
    default: '0', parse: count,
    doc: 'Worker threads that parse documents and write the mirror, beside the thread that fetches; 0: one fewer than the cores, 1 to 4. They start once the fetching thread has handled the first 64 pages (or 2 MiB) itself: a shorter crawl never pays for their start-up.',
  },
  render: {
    name: 'render', section: 'multithreading-options', kind: 'choice', unit: RENDER_MODES.join(', '),
    default: 'never', parse: choiceOf(RENDER_MODES),
    doc: 'Load HTML pages in headless Chromium and parse the rendered DOM: never, auto (app shells, and the pages of hosts whose first pages showed the browser finding more links) or always.',
  },
  renderThirdParty: {
    name: 'render-third-party', section: 'multithreading-options', kind: 'boolean', unit: 'true, false',
    default: 'false', parse: booleanValue,
    doc: 'Let the browser fetch from hosts other than the rendered page\'s (scripts on a CDN, an API host): each such request obeys that host\'s robots.txt, the reject list and the address guard, and takes one of that host\'s politeness slots; scope and the accept list do not apply.',
  },
  renderThreads: {
    name: 'render-threads', section: 'multithreading-options', kind: 'integer', unit: 'browser pages',
    default: '1', parse: numberOf({ min: 1 }),
    doc: 'Pages rendered at once (at least 1).',
  },
  renderTimeoutMs: {
    name: 'render-timeout', section: 'multithreading-options', kind: 'integer', unit: 'milliseconds',
    default: '20000', parse: numberOf({ min: 1 }),
    doc: 'The longest one page\'s render may take; past it the page fails with render-timeout.',
  },
  chromiumPath: {
    name: 'chromium-path', section: 'multithreading-options', kind: 'string', unit: 'path, or empty',
    default: '""', parse: optionalText,
    doc: 'The Chromium that renders pages; empty: chromium on PATH.',
  },
  indexFile: {
    name: 'index-file', section: 'output-options', kind: 'string', unit: 'path, - (stdout), or empty',
    default: '""', parse: optionalText,
    doc: 'A second copy of the index, in index-format; empty: only REPOSITORY/index.txt.',
  },
  indexFormat: {
    name: 'index-format', section: 'output-options', kind: 'choice', unit: INDEX_FORMATS.join(', '),
    default: 'seed', parse: choiceOf(INDEX_FORMATS),
    doc: 'The format of index-file.',
  },
  warcFile: {
    name: 'warc-file', section: 'output-options', kind: 'string', unit: 'path, or empty',
    default: '""', parse: optionalText,
    doc: 'Archive every fetch as WARC/1.1 in PATH-00000.warc.gz, … with a CDXJ index PATH-00000.cdxj beside each; empty: no WARC.',
  },
  warcMaxSize: {
    name: 'warc-max-size', section: 'output-options', kind: 'integer', unit: 'bytes',
    default: '1000000000', parse: count,
    doc: 'A WARC file takes no more records once it would pass this size; the next file starts.',
  },
  frontier: {
    name: 'frontier', section: 'distributed-options', kind: 'string', unit: 'redis://[:PASSWORD@]HOST:PORT/DB, or empty',
    default: '""', parse: redisUrl,
    doc: 'Where the frontier lives: empty, in this process; a Redis URL (a standalone server or any node of a Redis Cluster), shared by every worker of the crawl.',
  },
  crawlId: {
    name: 'crawl-id', section: 'distributed-options', kind: 'string', unit: 'name (letters, digits, ., _, -), or empty',
    default: '""', parse: nameValue,
    doc: 'Names the crawl\'s keys in Redis; workers with the same crawl-id share one crawl. Empty: the repository folder\'s name.',
  },
  leaseMs: {
    name: 'lease', section: 'distributed-options', kind: 'number', unit: 'seconds',
    default: '60', parse: numberOf({ min: 1, fraction: true, factor: 1000 }),
    doc: 'A worker that has not renewed its hold on a host for this long has it taken back, with its unfinished URLs.',
  },
  workers: {
    name: 'workers', section: 'distributed-options', kind: 'integer', unit: 'processes',
    default: '1', parse: numberOf({ min: 1 }),
    doc: 'Worker processes this machine starts for a shared frontier (each with `threads` requests in flight).',
  },
};

const FIELDS = Object.keys(KEYS) as (keyof CrawlerConfig)[];

/** The config field of each key name. */
export const FIELD_OF_KEY: ReadonlyMap<string, keyof CrawlerConfig> = new Map(
  FIELDS.map((field) => [KEYS[field].name, field]),
);

/** A key's default text as a value: `{ }` is the empty list, anything else one word (quotes stripped). */
function defaultValue(text: string): ConfValue {
  if (text === '{ }') return { kind: 'list', items: [], line: 0 };
  return { kind: 'scalar', text: text.replace(/^"(.*)"$/, '$1'), line: 0 };
}

/**
 * Every key at its default, read from the table's default texts by the keys' own parsers,
 * so that a default can never be a value the key would refuse.
 *
 * @example
 * DEFAULT_CONFIG.maxCrawlDelayMs //=> 60000
 */
export const DEFAULT_CONFIG: CrawlerConfig = Object.freeze(
  // KEYS has exactly one entry per field, so the object is complete.
  Object.fromEntries(
    FIELDS.map((f) => [f, KEYS[f].parse(defaultValue(KEYS[f].default), KEYS[f].name)]),
  ) as unknown as CrawlerConfig,
);

/** The four scope modes of SPEC §4. */
export type ScopeMode = 'free-spanning' | 'domain-scope' | 'host-scope' | 'path-scope';
/** The crawl order of `traversal-algorithm`: breadth-first or depth-first. */
export type Traversal = 'bfs' | 'dfs';
/** The formats of `index-format` (SPEC §6). */
export type IndexFormat = 'seed' | 'jsonl' | 'csv' | 'edges';
/** How recrawls are scheduled: every page each `period`, or each page on its own interval (SPEC §10). */
export type RecrawlPolicy = 'fixed' | 'adaptive';
/** When pages are loaded in headless Chromium (`render`, SPEC §13). */
export type RenderMode = 'never' | 'auto' | 'always';

/** Where `--serve` listens (SPEC §12). */
export interface ServeAddress {
  /** An IP address or a name; default 127.0.0.1. */
  readonly host: string;
  /** 0 lets the system choose (the log says which). */
  readonly port: number;
}

/** One `--resolve HOST:PORT:ADDRESS` entry, as curl's. */
export interface ResolveEntry {
  readonly host: string;
  readonly port: number;
  readonly address: string;
}

/**
 * Everything a crawl is configured with, after Crawler.conf and the command-line flags are merged.
 * Times are in milliseconds unless the name says otherwise; for every limit 0 means no limit.
 */
export interface CrawlerConfig {
  // crawler-options
  readonly startingPoints: readonly string[];
  /** Files of seed URLs (`-` = stdin), read as the crawl runs. */
  readonly inputFiles: readonly string[];
  readonly acceptList: readonly RegExp[];
  readonly rejectList: readonly RegExp[];
  readonly maxPageNumber: number;
  readonly scope: ScopeMode;
  readonly traversal: Traversal;
  readonly repository: string;
  readonly timeLimitMs: number;
  readonly maxDepth: number;
  readonly maxPagesPerHost: number;
  readonly maxUrlLength: number;
  readonly maxPathRepetition: number;
  readonly maxLinksPerPage: number;
  readonly priorityLevels: number;
  /** Megabytes that the frontier's queues, the seen-set and the page tables may hold in memory together; past their share they spill to disk. */
  readonly memoryBudgetMb: number;
  readonly nearDuplicateBits: number;
  readonly skipNearDuplicates: boolean;
  /** Read the sitemaps of every host in scope (SPEC §9): `true` those its robots.txt names, `guess` /sitemap.xml as well. */
  readonly sitemaps: boolean | 'guess';
  // politeness-options
  readonly delayFactor: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxPerHost: number;
  readonly maxCrawlDelayMs: number;
  readonly robotsTtlMs: number;
  /** Idle hosts whose connections stay open and whose robots.txt rules stay compiled. */
  readonly idleHosts: number;
  readonly obeyRelNofollow: boolean;
  // fetch-options
  readonly userAgent: string;
  readonly resolve: readonly ResolveEntry[];
  readonly connectTimeoutMs: number;
  readonly headerTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** The whole of one download, connection to last byte; 0 = no limit. */
  readonly downloadTimeoutMs: number;
  readonly maxBodySize: number;
  readonly maxDecodedSize: number;
  readonly maxRedirects: number;
  readonly maxRetries: number;
  /** Connections to private, loopback, link-local... addresses are allowed (the SSRF guard is off). */
  readonly allowPrivateAddresses: boolean;
  /** PEM certificates trusted on top of Node's roots; undefined = none. */
  readonly caFile: string | undefined;
  /** TLS certificates are not verified (dangerous). */
  readonly insecure: boolean;
  /** The proxy of every request, as curl's --proxy; undefined = the environment's (HTTP_PROXY...). */
  readonly proxy: string | undefined;
  /** HTTP/2 is offered to https servers. */
  readonly http2: boolean;
  /** A cookie jar is kept for the crawl (and its resume). */
  readonly cookies: boolean;
  /** Headers added to every request: [lowercase name, value]. */
  readonly headers: readonly (readonly [string, string])[];
  // logging
  readonly logFile: string;
  readonly logLevel: 0 | 1 | 2;
  /** `--serve [HOST:]PORT`: metrics, status, dashboard and control API over HTTP; undefined = off. */
  readonly serve: ServeAddress | undefined;
  /** The bearer token of the control API, read from this file; undefined = made at start in the state folder. */
  readonly serveTokenFile: string | undefined;
  // recrawling-options
  readonly periodHours: number;
  readonly recrawlPolicy: RecrawlPolicy;
  readonly minIntervalHours: number;
  readonly maxIntervalHours: number;
  // multithreading-options
  /** `threads` in Crawler.conf (the assignment's name): requests in flight overall, not threads. */
  readonly requestsInFlight: number;
  /** `document-threads`: worker threads that parse and store documents; 0 = one fewer than the cores, 1 to 4. */
  readonly documentThreads: number;
  /** `render`: never, app shells and the pages of hosts learned to need it (auto), or every HTML page. */
  readonly render: RenderMode;
  /** `render-third-party`: the browser may fetch from hosts other than the page's. */
  readonly renderThirdParty: boolean;
  /** `render-threads`: browser pages at once. */
  readonly renderThreads: number;
  /** `render-timeout`: the longest one page's render may take. */
  readonly renderTimeoutMs: number;
  /** `chromium-path`: the browser; undefined = `chromium` on PATH. */
  readonly chromiumPath: string | undefined;
  // output-options
  /** Where the extra index goes (`-` = stdout); undefined = only REPOSITORY/index.txt. */
  readonly indexFile: string | undefined;
  readonly indexFormat: IndexFormat;
  /** PATH of the WARC files `PATH-00000.warc.gz`, …; undefined = no WARC (SPEC §9). */
  readonly warcFile: string | undefined;
  /** Bytes a WARC file may reach before the next one starts; 0 = one file. */
  readonly warcMaxSize: number;
  // distributed-options (SPEC §8)
  /** `redis://HOST:PORT/DB`: the shared frontier; undefined = in-process. */
  readonly frontier: string | undefined;
  /** Names the crawl's keys in Redis; undefined = the repository folder's name. */
  readonly crawlId: string | undefined;
  readonly leaseMs: number;
  /** Worker processes started on this machine. */
  readonly workers: number;
}

/** The default `memory-budget` in MB: a 100,000-page broad crawl stays near 200 MB of RSS (node and the threads take 120 of it before any page), and a crawl of tens of thousands of pages never touches the disk. */
export const DEFAULT_MEMORY_BUDGET_MB = 64;

/** Levels a request's priority can take: the request codec keeps it in 4 bits. */
export const MAX_PRIORITY_LEVELS = 16;

/** Beyond this, blocks get so short that every lookup walks long chains (8 bits at k = 7). */
export const MAX_NEAR_DUPLICATE_BITS = 6;

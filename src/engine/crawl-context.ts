import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { WarcArchive } from '../archive/warc-archive.js';
import type { CrawlerConfig } from '../model/config.js';
import { addressGuard, type AddressGuard } from '../fetch/address-guard.js';
import { CookieDispatcher } from '../fetch/cookie-dispatcher.js';
import { createDispatcher, type DispatcherOptions } from '../fetch/create-dispatcher.js';
import { fetchDocument, type FetchOptions } from '../fetch/fetch-document.js';
import { type FetchResponse } from '../model/fetch-response.js';
import { hostFrontier, type DelayPolicy, type Frontier } from '../frontier/host-frontier.js';
import type { CrawlRequest } from '../model/crawl-request.js';
import { Politeness } from '../frontier/politeness.js';
import { inLinkCounts, type InLinkCounts } from '../frontier/in-link-counts.js';
import { NearDuplicateIndex } from '../frontier/near-duplicate-index.js';
import type { PriorityContext } from '../frontier/prioritizer.js';
import { crawlRequestCodec } from '../frontier/request-codec.js';
import { fingerprintSet, type SeenSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { RobotsCache } from '../robots/robots-cache.js';
import { productToken } from '../robots/robots-txt.js';
import type { DropReport } from '../model/filter-reason.js';
import { linkPolicy, type LinkPolicy } from '../url/link-policy.js';
import type { NearDuplicates } from '../stages/parse-document.js';
import { proxySettings, withoutPassword } from '../fetch/proxy-settings.js';
import { CookieFile } from '../state/cookie-file.js';
import { STATE_DIR, type CrawlState } from '../state/crawl-state.js';
import { RecrawlSchedule } from '../state/recrawl-schedule.js';
import type { JournalWriter } from '../state/journal-writer.js';
import { MirrorStore } from '../store/mirror-store.js';
import { withoutSessionIds } from '../url/query-params.js';
import { growingScope } from '../url/scope.js';
import { makeListFilter } from '../url/url-lists.js';
import { DocumentPool } from '../workers/document-pool.js';
import type { SeedInput } from '../input/input-seeds.js';
import { CrawlStats } from '../sinks/crawl-stats.js';

/** robots.txt beyond this is not read (RFC 9309 §2.5 asks for at least 500 KiB). */
const ROBOTS_MAX_BYTES = 512_000;

/**
 * The state one crawl shares across all its requests, passed into the stages as objects (STYLE 2.2e):
 * the frontier, seen-set, robots cache, politeness, mirror, stats, logger.
 */
export interface CrawlContext {
  readonly config: CrawlerConfig;
  /** The input files of `-i FILE`, opened, not read yet: {@link seedsOf} streams their seeds into the crawl. */
  readonly inputs: readonly SeedInput[];
  readonly log: CrawlLogger;
  readonly stats: CrawlStats;
  readonly frontier: Frontier<CrawlRequest>;
  readonly seen: SeenSet;
  /**
   * Depth-first, or more than one priority level: URLs already pulled from the frontier, so that a
   * URL found again while waiting can move up the stack or to a higher level.
   */
  readonly started: SeenSet | undefined;
  /** In-links counted as links are found, and the levels: what a prioritizer knows (SPEC §10). */
  readonly inLinks: InLinkCounts;
  readonly priority: PriorityContext;
  /** Resume and recrawl state: the journal, what an interrupted run left, the last crawl's pages. */
  readonly state: CrawlState;
  /** When each page is next due (recrawl-policy), on the crawl's clock. */
  readonly schedule: RecrawlSchedule;
  readonly robots: RobotsCache;
  readonly politeness: Politeness;
  readonly policy: LinkPolicy;
  /** Widens the scope by a seed read while crawling (an input file), here, in the document workers and, for a resume, in the journal. */
  widenScope(seed: string): void;
  readonly store: MirrorStore;
  readonly dispatcher: Dispatcher;
  /** The SSRF guard: the connector asks it at connect time, admission about literal addresses. */
  readonly guard: AddressGuard;
  readonly fetchOptions: FetchOptions;
  /** The robots.txt product token of the user agent. */
  readonly agent: string;
  readonly hostCounts: Map<string, number>;
  readonly contentSeen: Map<string, string>;
  /** The SimHashes of the crawl's pages, for near-duplicates (SPEC §10). */
  readonly near: NearDuplicates;
  readonly report: DropReport;
  /** Worker threads that describe and store documents (the default unit's parse and mirror stages). */
  readonly documents: DocumentPool;
  /** The WARC every fetch is archived in (`warc-file`), if any. */
  readonly archive: WarcArchive | undefined;
  /** `host:port` → the peer address of its latest connection: the archive's WARC-IP-Address. */
  readonly addresses: Map<string, string>;
  /** Aborts every fetch in flight: the crawl is being stopped. */
  readonly abort: AbortController;
  close(): Promise<void>;
}

/** What a worker of a crawl shared through Redis (SPEC §8) puts in place of the in-process parts. */
export interface SharedParts {
  /** The shared frontier, applying `politeness` to the hosts it holds; it tells Redis of an end only once `journal` holds its record. */
  frontier(politeness: DelayPolicy, journal: JournalWriter): Frontier<CrawlRequest>;
  /** robots.txt fetched through the shared cache. */
  robotsFetch(fetch: (url: string) => Promise<FetchResponse>): (url: string) => Promise<FetchResponse>;
}

/** Where a crawl's connections go, for tests and embedders: the name lookup, and a wrapper of the connector. */
export type NetworkHooks = Pick<DispatcherOptions, 'lookup' | 'wrapConnector'>;

/**
 * Builds a crawl's shared state from its configuration.
 *
 * @example
 * const seen = fingerprintSet();
 * const ctx = createCrawlContext(config, log, seen, await openCrawlState(config.repository, seen));
 * crawl(defaultSpec(ctx)).subscribe();
 */
export interface CrawlContextOptions {
  /** The clock that recrawl schedules are kept on (milliseconds since the epoch). Default `Date.now`. */
  readonly now?: () => number;
  /** The set of URLs started, as {@link startedSet} made it and the crawl state filled it on resume. */
  readonly started?: SeenSet;
  /** The WARC archive of the crawl and the addresses of its hosts, when `warc-file` is set. */
  readonly archiving?: { readonly archive: WarcArchive; readonly addresses: Map<string, string> };
  /** The seed inputs (`-i FILE`) of the crawl. */
  readonly inputs?: readonly SeedInput[];
  /** A worker of a crawl shared through Redis: the parts it takes from there instead. */
  readonly shared?: SharedParts;
  /** Where connections go (a test's recording connector); default: DNS and the network. */
  readonly network?: NetworkHooks;
}

/**
 * The set of URLs pulled from the frontier, which depth-first and priority levels need (a URL found
 * again while still waiting moves up); undefined when the configuration needs none.
 */
export function startedSet(config: CrawlerConfig): SeenSet | undefined {
  return config.traversal === 'dfs' || config.priorityLevels > 1 ? fingerprintSet(undefined, withoutSessionIds) : undefined;
}

export function createCrawlContext(config: CrawlerConfig, log: CrawlLogger, seen: SeenSet, state: CrawlState, options: CrawlContextOptions = {}): CrawlContext {
  const abort = new AbortController();
  const archive = options.archiving?.archive;
  const addresses = options.archiving?.addresses ?? new Map<string, string>();
  // Every fetch in flight listens to this one signal.
  setMaxListeners(0, abort.signal);
  const stats = new CrawlStats((url) => state.known.has(url));
  const guard = addressGuard({ allowPrivate: config.allowPrivateAddresses, trustedHosts: config.startingPoints.map((s) => new URL(s).hostname) });
  const proxy = proxySettings(config.proxy, process.env);
  if (config.insecure) log.warn('insecure: TLS certificates are not verified; anyone on the path can read and change what is crawled');
  if (proxy) log.info({ http: withoutPassword(proxy.http), https: withoutPassword(proxy.https) }, 'requests go through a proxy');
  const direct = createDispatcher({
    resolve: config.resolve,
    connectTimeoutMs: config.connectTimeoutMs,
    connectionsPerOrigin: config.maxPerHost,
    guard,
    tls: { caFile: config.caFile, insecure: config.insecure },
    http2: config.http2,
    ...(proxy ? { proxy } : {}),
    ...(archive ? { remoteAddresses: addresses } : {}),
    ...options.network,
  });
  const cookies = config.cookies ? CookieFile.open(join(config.repository, STATE_DIR, 'cookies.json'), (msg) => log.warn(msg)) : undefined;
  const dispatcher = cookies ? new CookieDispatcher(direct, cookies) : direct;
  const fetchOptions: FetchOptions = {
    dispatcher,
    headers: config.headers,
    userAgent: config.userAgent,
    headerTimeoutMs: config.headerTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    maxBodySize: config.maxBodySize,
    maxDecodedSize: config.maxDecodedSize,
    signal: abort.signal,
    ...(archive ? { capture: true } : {}),
  };
  const robotsFetch = { ...fetchOptions, maxBodySize: ROBOTS_MAX_BYTES, maxDecodedSize: ROBOTS_MAX_BYTES };
  const fetchRobots = (url: string): Promise<FetchResponse> =>
    archive ? fetchDocument(url, robotsFetch).then((res) => archive.record(url, res).then(() => res)) : fetchDocument(url, robotsFetch);
  const robots = new RobotsCache({
    // robots.txt is archived too, as Heritrix does: a replay shows what the crawler was allowed; a
    // worker of a shared crawl reads it through the shared cache first.
    fetch: options.shared?.robotsFetch(fetchRobots) ?? fetchRobots,
    userAgent: config.userAgent,
    ttlMs: config.robotsTtlMs,
  });
  const politeness = new Politeness({
    delayFactor: config.delayFactor,
    minDelayMs: config.minDelayMs,
    maxDelayMs: config.maxDelayMs,
    crawlDelayMs: (host) => robots.crawlDelayMs(host),
  });
  const source = (list: readonly RegExp[]) => list.map((re) => [re.source, re.flags] as const);
  const scope = growingScope(config.scope, config.startingPoints);
  const documents = new DocumentPool({
    repository: config.repository,
    scope: config.scope,
    seeds: [...config.startingPoints, ...state.scopeSeeds.filter((seed) => scope.add(seed))],
    accept: source(config.acceptList),
    reject: source(config.rejectList),
    agent: productToken(config.userAgent),
    obeyRelNofollow: config.obeyRelNofollow,
    maxLinksPerPage: config.maxLinksPerPage,
  });
  const levels = config.priorityLevels;
  // A worker's requests come from Redis, which may hand a URL back after a lease is taken back: no stale copies to skip.
  const started = options.shared ? undefined : (options.started ?? startedSet(config));
  const inLinks = inLinkCounts();
  const debug = log.isLevelEnabled('debug');
  const report: DropReport = (reason, url, detail) => {
    stats.dropped(reason);
    if (debug) log.debug({ url, reason, ...(detail ? { detail } : {}) }, 'dropped');
  };
  return {
    config,
    inputs: options.inputs ?? [],
    log,
    stats,
    frontier: options.shared?.frontier(politeness, state.journal) ?? hostFrontier<CrawlRequest>({
      order: config.traversal,
      maxPerHost: config.maxPerHost,
      politeness,
      codec: crawlRequestCodec,
      levels,
      levelOf: (req: CrawlRequest) => req.level ?? 1,
      // A retry or a request put back after robots.txt was started already, and is no stale copy.
      ...(started ? { skip: (req: CrawlRequest) => req.attempt === 0 && !req.requeued && !started.add(req.url) } : {}),
    }),
    started,
    inLinks,
    priority: { levels, inLinks: (url) => inLinks.get(url) },
    seen,
    state,
    schedule: new RecrawlSchedule({
      policy: config.recrawlPolicy,
      periodHours: config.periodHours,
      minIntervalHours: config.minIntervalHours,
      maxIntervalHours: config.maxIntervalHours,
      now: options.now ?? Date.now,
    }),
    robots,
    politeness,
    policy: linkPolicy(scope.test, makeListFilter(config.acceptList, config.rejectList)),
    widenScope(seed) {
      if (!scope.add(seed)) return;
      documents.widenScope(seed);
      state.journal.append(['s', seed]);
    },
    store: new MirrorStore(config.repository),
    dispatcher,
    guard,
    fetchOptions,
    agent: productToken(config.userAgent),
    hostCounts: state.hostCounts,
    contentSeen: new Map(),
    near: { index: new NearDuplicateIndex(config.nearDuplicateBits), skipLinks: config.skipNearDuplicates },
    report,
    documents,
    archive,
    addresses,
    abort,
    // The crawl is over: nothing is in flight, and idle keep-alive sockets need no graceful goodbye.
    close: async () => {
      await Promise.all([
        documents.close(),
        dispatcher.destroy(),
        archive?.close(),
        cookies?.then((file) => file.save()).catch((err: unknown) => log.error({ err }, 'cannot save the cookies')),
      ]);
    },
  };
}

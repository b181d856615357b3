import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { WarcArchive } from '../archive/warc-archive.js';
import type { CrawlerConfig } from '../config/config.js';
import { addressGuard, type AddressGuard } from '../fetch/address-guard.js';
import { CookieDispatcher } from '../fetch/cookie-dispatcher.js';
import { createDispatcher, type DispatcherOptions } from '../fetch/create-dispatcher.js';
import { fetchDocument, type FetchOptions } from '../fetch/fetch-document.js';
import { hostFrontier, type Frontier } from '../frontier/host-frontier.js';
import type { CrawlRequest } from '../frontier/crawl-request.js';
import { Politeness } from '../frontier/politeness.js';
import { crawlRequestCodec } from '../frontier/request-codec.js';
import { fingerprintSet, type SeenSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { RobotsCache } from '../robots/robots-cache.js';
import { productToken } from '../robots/robots-txt.js';
import type { DropReport } from '../stages/admissible.js';
import { linkPolicy, type LinkPolicy } from '../stages/link-policy.js';
import { proxySettings, withoutPassword } from '../fetch/proxy-settings.js';
import { CookieFile } from '../state/cookie-file.js';
import { STATE_DIR, type CrawlState } from '../state/crawl-state.js';
import { MirrorStore } from '../store/mirror-store.js';
import { withoutSessionIds } from '../url/query-params.js';
import { growingScope } from '../url/scope.js';
import { makeListFilter } from '../url/url-lists.js';
import { DocumentPool } from '../workers/document-pool.js';
import type { SeedInput } from '../input/input-seeds.js';
import { CrawlStats } from './crawl-stats.js';

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
  /** Depth-first only: URLs already pulled from the frontier, so a URL found again while waiting moves up the stack. */
  readonly started: SeenSet | undefined;
  /** Resume and recrawl state: the journal, what an interrupted run left, the last crawl's pages. */
  readonly state: CrawlState;
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
export function createCrawlContext(
  config: CrawlerConfig,
  log: CrawlLogger,
  seen: SeenSet,
  state: CrawlState,
  archiving?: { readonly archive: WarcArchive; readonly addresses: Map<string, string> },
  inputs: readonly SeedInput[] = [],
  network: NetworkHooks = {},
): CrawlContext {
  const abort = new AbortController();
  const archive = archiving?.archive;
  const addresses = archiving?.addresses ?? new Map<string, string>();
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
    ...network,
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
  const robots = new RobotsCache({
    // robots.txt is archived too, as Heritrix does: a replay shows what the crawler was allowed.
    fetch: archive ? (url) => fetchDocument(url, robotsFetch).then((res) => archive.record(url, res).then(() => res)) : (url) => fetchDocument(url, robotsFetch),
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
  const started = config.traversal === 'dfs' ? fingerprintSet(undefined, withoutSessionIds) : undefined;
  const debug = log.isLevelEnabled('debug');
  const report: DropReport = (reason, url, detail) => {
    stats.dropped(reason);
    if (debug) log.debug({ url, reason, ...(detail ? { detail } : {}) }, 'dropped');
  };
  return {
    config,
    inputs,
    log,
    stats,
    frontier: hostFrontier<CrawlRequest>({
      order: config.traversal,
      maxPerHost: config.maxPerHost,
      politeness,
      codec: crawlRequestCodec,
      // A retry or a request put back after robots.txt was started already, and is no stale copy.
      ...(started ? { skip: (req: CrawlRequest) => req.attempt === 0 && !req.requeued && !started.add(req.url) } : {}),
    }),
    started,
    seen,
    state,
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

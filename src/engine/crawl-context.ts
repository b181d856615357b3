import { join } from 'node:path';
import type { WarcArchive } from '../archive/warc-archive.js';
import type { AddressGuard } from '../fetch/address-guard.js';
import { hostFrontier, type DelayPolicy, type Frontier } from '../frontier/host-frontier.js';
import { inLinkCounts, type InLinkCounts } from '../frontier/in-link-counts.js';
import { ContentSeen } from '../frontier/content-seen.js';
import { NearDuplicateIndex } from '../frontier/near-duplicate-index.js';
import { Politeness } from '../frontier/politeness.js';
import type { PriorityContext } from '../frontier/prioritizer.js';
import { memoryShares } from '../frontier/memory-budget.js';
import { crawlRequestCodec } from '../frontier/request-codec.js';
import { SegmentStore } from '../frontier/segment-store.js';
import { fingerprintSet, spillingSeenSet, type SeenSet, type SpillingSeenSet, type SpillOptions } from '../frontier/seen-set.js';
import type { SeedInput } from '../input/input-seeds.js';
import type { CrawlLogger } from '../log/create-logger.js';
import type { CrawlerConfig } from '../model/config.js';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { FetchResponse } from '../model/fetch-response.js';
import type { PageVisit } from '../model/page-visit.js';
import type { DropReport } from '../model/filter-reason.js';
import { RobotsCache } from '../robots/robots-cache.js';
import { productToken } from '../robots/robots-txt.js';
import { CrawlStats } from '../sinks/crawl-stats.js';
import type { NearDuplicates } from '../stages/parse-document.js';
import { STATE_DIR, type CrawlState } from '../state/crawl-state.js';
import type { JournalWriter } from '../state/journal-writer.js';
import { RecrawlSchedule } from '../state/recrawl-schedule.js';
import { MirrorStore } from '../store/mirror-store.js';
import { reservedNames } from '../store/reserved-names.js';
import { linkPolicy, linkPolicySource, type LinkPolicy } from '../url/link-policy.js';
import { withoutSessionIds } from '../url/query-params.js';
import { DocumentPool } from '../workers/document-pool.js';
import { findChromium } from '../render/find-chromium.js';
import { PageRenderer } from '../render/page-renderer.js';
import { CrawlControl } from './crawl-control.js';
import { droppedSeedWarning } from './dropped-seed.js';
import { createFetcher, type Fetcher, type NetworkHooks } from './fetcher.js';

/** What admission knows: the URLs seen and started, the link policy, the per-host counts, the in-links, and where drops are told. */
export interface Admission {
  readonly seen: SeenSet;
  /**
   * Depth-first, or more than one priority level: URLs already pulled from the frontier, so that a
   * URL found again while waiting can move up the stack or to a higher level.
   */
  readonly started: SeenSet | undefined;
  /** Scope and accept/reject lists; seeds read while crawling (input files) widen it. */
  readonly policy: LinkPolicy;
  /** The SSRF guard, asked about literal addresses (the connector asks it about names). */
  readonly guard: AddressGuard;
  /** Documents admitted per host, for `max-pages-per-host`. */
  readonly hostCounts: Map<string, number>;
  /** In-links counted as links are found, and the levels: what a prioritizer knows (SPEC §10). */
  readonly inLinks: InLinkCounts;
  readonly priority: PriorityContext;
  /** Told of every URL dropped, with the reason: counted in stats, logged at log-level 2. */
  readonly report: DropReport;
  /** Widens the scope by a seed read while crawling (an input file), here, in the document workers and, for a resume, in the journal. */
  widenScope(seed: string): void;
}

/** What a crawl holds per host: robots.txt rules and the politeness delays. */
export interface HostPolicy {
  readonly robots: RobotsCache;
  readonly politeness: Politeness;
}

/** Where fetched documents are described and stored, and what content the crawl has seen. */
export interface Documents {
  /** Worker threads that describe and store documents (the default unit's parse and mirror stages). */
  readonly pool: DocumentPool;
  readonly store: MirrorStore;
  /** Content MD5 → the URL that had it first. */
  readonly contentSeen: ContentSeen;
  /** The SimHashes of the crawl's pages, for near-duplicates (SPEC §10). */
  readonly near: NearDuplicates;
}

/**
 * The state one crawl shares across all its requests, passed into the stages as objects (STYLE
 * 2.2e), by concern: admission, hosts, the fetcher, documents; and the frontier, the crawl state,
 * the recrawl schedule, stats and the log that every part reads.
 */
export interface CrawlContext {
  readonly config: CrawlerConfig;
  readonly log: CrawlLogger;
  readonly stats: CrawlStats;
  readonly frontier: Frontier<CrawlRequest>;
  /** The files the frontier's queues spill to past their share of `memory-budget`; none for a shared frontier. */
  readonly frontierFiles: SegmentStore | undefined;
  /** Resume and recrawl state: the journal, what an interrupted run left, the last crawl's pages. */
  readonly state: CrawlState;
  /** When each page is next due (recrawl-policy), on the crawl's clock. */
  readonly schedule: RecrawlSchedule;
  /**
   * A worker of a shared crawl: the last visit of each page it took from Redis (the crawl's recrawl
   * schedule), whichever machine made it; it comes before the last crawl's record of the page here.
   */
  readonly visits: ((url: string) => PageVisit | undefined) | undefined;
  /** The input files of `-i FILE`, opened, not read yet: `seedsOf` streams their seeds into the crawl. */
  readonly inputs: readonly SeedInput[];
  readonly admission: Admission;
  readonly hosts: HostPolicy;
  readonly fetcher: Fetcher;
  readonly documents: Documents;
  /** The headless browser of `render` = auto or always; undefined when the crawl renders nothing. */
  readonly renderer: PageRenderer | undefined;
  /** Pause, resume and seeds added while the crawl runs (the control API of `--serve`). */
  readonly control: CrawlControl;
  /** Frees what the crawl holds: the document workers, the connections, the WARC, the cookie jar. */
  close(): Promise<void>;
}

/** What a worker of a crawl shared through Redis (SPEC §8) puts in place of the in-process parts. */
export interface SharedParts {
  /** The shared frontier, applying `politeness` to the hosts it holds; it tells Redis of an end only once `journal` holds its record. */
  frontier(politeness: DelayPolicy, journal: JournalWriter): Frontier<CrawlRequest>;
  /** The last visit of a page the frontier took, as the crawl keeps it in Redis (undefined: none, a new page). */
  visitOf(url: string): PageVisit | undefined;
  /** robots.txt fetched through the shared cache. */
  robotsFetch(fetch: (url: string) => Promise<FetchResponse>): (url: string) => Promise<FetchResponse>;
}

/** What {@link createCrawlContext} takes besides the configuration: the clock, the WARC, the inputs, the shared parts of a distributed worker, the network hooks. */
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
  /** Where the frontier's queues spill to. Default: `frontier` in the repository's crawl state. */
  readonly spillDir?: string;
  /**
   * Where the per-page tables spill to: the content MD5s to `content` in it, past half of their share
   * of `memory-budget` (the near-duplicate index keeps the latest pages that fit in the other half).
   * Default: the repository's crawl state.
   */
  readonly tablesDir?: string;
}

/**
 * Bytes a page costs the near-duplicate index with a 60-character URL at k = 3 (28 and the URL,
 * `NearDuplicateIndex`), and half again for its arrays' growth: how many pages a budget keeps.
 */
const NEAR_PAGE_BYTES = 132;

/** The crawl's politeness (`delay-factor`, `min-delay`, `max-delay`, robots.txt Crawl-delay): one for the frontier, or one of its own for the browser's requests to other hosts. */
export function crawlPoliteness(config: CrawlerConfig, robots: RobotsCache): Politeness {
  return new Politeness({
    delayFactor: config.delayFactor,
    minDelayMs: config.minDelayMs,
    maxDelayMs: config.maxDelayMs,
    crawlDelayMs: (host) => robots.crawlDelayMs(host),
    maxCrawlDelayMs: config.maxCrawlDelayMs,
  });
}

/**
 * The set of URLs pulled from the frontier, which depth-first and priority levels need (a URL found
 * again while still waiting moves up); undefined when the configuration needs none.
 */
export function startedSet(config: CrawlerConfig): SeenSet | undefined;
/** …kept to `spill.budgetBytes` of memory, the rest in sorted runs under `spill.dir` ({@link spillingSeenSet}). */
export function startedSet(config: CrawlerConfig, spill: Omit<SpillOptions, 'canonical'>): SpillingSeenSet | undefined;
export function startedSet(config: CrawlerConfig, spill?: Omit<SpillOptions, 'canonical'>): SeenSet | undefined {
  if (config.traversal !== 'dfs' && config.priorityLevels <= 1) return undefined;
  return spill === undefined ? fingerprintSet(undefined, withoutSessionIds) : spillingSeenSet({ ...spill, canonical: withoutSessionIds });
}

/**
 * Builds a crawl's shared state from its configuration.
 *
 * @example
 * const seen = fingerprintSet();
 * const ctx = createCrawlContext(config, log, seen, await openCrawlState(config.repository, seen));
 * crawl(defaultSpec(ctx)).subscribe();
 */
export function createCrawlContext(config: CrawlerConfig, log: CrawlLogger, seen: SeenSet, state: CrawlState, options: CrawlContextOptions = {}): CrawlContext {
  const { shared } = options;
  const visits = shared && ((url: string) => shared.visitOf(url));
  const stats = new CrawlStats((url) => visits?.(url) ?? state.known.get(url)?.record);
  const shares = memoryShares(config.memoryBudgetMb);
  const tablesBytes = shares.pageTablesBytes;
  const contentSeen = new ContentSeen({ dir: join(options.tablesDir ?? join(config.repository, STATE_DIR), 'content'), budgetBytes: tablesBytes / 2 });
  const fetcher = createFetcher(config, log, options);
  const robots = new RobotsCache({
    // A worker of a shared crawl reads robots.txt through the shared cache first.
    fetch: options.shared?.robotsFetch(fetcher.robotsTxt) ?? fetcher.robotsTxt,
    userAgent: config.userAgent,
    ttlMs: config.robotsTtlMs,
    maxOrigins: config.idleHosts,
  });
  const politeness = crawlPoliteness(config, robots);
  // Built once, for both threads: the main thread's admission and the document workers' link lines;
  // the seeds an interrupted run's input files added widen it again.
  const policySource = linkPolicySource(config, state.scopeSeeds);
  const policy = linkPolicy(policySource);
  // The crawl's own files, and the user's index, log and WARC when they lie inside the repository.
  const reserved = reservedNames(config.repository, [
    config.indexFile === '-' ? undefined : config.indexFile,
    config.logFile === 'screen' ? undefined : config.logFile,
    config.warcFile,
  ]);
  const pool = new DocumentPool({
    repository: config.repository,
    reserved,
    policy: policySource,
    agent: productToken(config.userAgent),
    obeyRelNofollow: config.obeyRelNofollow,
    maxLinksPerPage: config.maxLinksPerPage,
  }, config.documentThreads > 0 ? config.documentThreads : undefined);
  const levels = config.priorityLevels;
  // A worker's requests come from Redis, which may hand a URL back after a lease is taken back: no stale copies to skip.
  const started = options.shared ? undefined : (options.started ?? startedSet(config));
  const inLinks = inLinkCounts();
  const debug = log.isLevelEnabled('debug');
  // Only the seeds warned about: a seed given twice is named once.
  const warnedSeeds = new Set<string>();
  const report: DropReport = (reason, url, detail, seed) => {
    stats.dropped(reason);
    const warning = seed ? droppedSeedWarning(reason) : undefined;
    if (warning === undefined) {
      if (debug) log.debug({ url, reason, ...(detail ? { detail } : {}) }, 'dropped');
    } else if (!warnedSeeds.has(url)) {
      warnedSeeds.add(url);
      log.warn({ url, reason }, warning);
    }
  };
  const renderer = config.render === 'never'
    ? undefined
    : new PageRenderer({ executablePath: findChromium(config.chromiumPath) ?? 'chromium', threads: config.renderThreads, timeoutMs: config.renderTimeoutMs });
  const frontierFiles = options.shared
    ? undefined
    : new SegmentStore(options.spillDir ?? join(config.repository, STATE_DIR, 'frontier'), shares.frontierBytes);
  return {
    config,
    log,
    stats,
    frontierFiles,
    frontier: options.shared?.frontier(politeness, state.journal) ?? hostFrontier<CrawlRequest>({
      order: config.traversal,
      maxPerHost: config.maxPerHost,
      politeness,
      codec: crawlRequestCodec,
      ...(frontierFiles ? { spill: frontierFiles } : {}),
      levels,
      levelOf: (req: CrawlRequest) => req.level ?? 1,
      // A retry or a request put back after robots.txt was started already, and is no stale copy.
      ...(started ? { skip: (req: CrawlRequest) => req.attempt === 0 && !req.requeued && !started.add(req.url) } : {}),
    }),
    state,
    schedule: new RecrawlSchedule({
      policy: config.recrawlPolicy,
      periodHours: config.periodHours,
      minIntervalHours: config.minIntervalHours,
      maxIntervalHours: config.maxIntervalHours,
      now: options.now ?? Date.now,
    }),
    visits,
    inputs: options.inputs ?? [],
    admission: {
      seen,
      started,
      policy,
      guard: fetcher.guard,
      hostCounts: state.hostCounts,
      inLinks,
      priority: { levels, inLinks: (url) => inLinks.get(url) },
      report,
      widenScope(seed) {
        if (!policy.widen(seed)) return;
        pool.widenScope(seed);
        state.journal.append(['s', seed]);
      },
    },
    hosts: { robots, politeness },
    fetcher,
    documents: {
      pool,
      store: new MirrorStore(config.repository, { reserved }),
      contentSeen,
      near: { index: new NearDuplicateIndex(config.nearDuplicateBits, Math.max(2, tablesBytes / 2 / NEAR_PAGE_BYTES)), skipLinks: config.skipNearDuplicates },
    },
    renderer,
    control: new CrawlControl(),
    close: async () => {
      frontierFiles?.close();
      await Promise.all([pool.close(), fetcher.close(), renderer?.close(), contentSeen.close()]);
    },
  };
}

import { catchError, concat, from, identity, mergeMap, of, pipe, type MonoTypeOperatorFunction, type Observable, type OperatorFunction } from 'rxjs';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import { andThen, stepOperator } from '../stages/admission-step.js';
import { countInLinksStep } from '../stages/count-in-links.js';
import { dedupStep } from '../stages/dedup.js';
import { defaultPrioritizer, type Prioritizer } from '../frontier/prioritizer.js';
import { levelOf, levelRose, requestLevelRose } from '../stages/prioritize.js';
import type { FetchResponse, Validators } from '../model/fetch-response.js';
import { warcDate } from '../archive/warc-date.js';
import { fetchPage } from '../stages/fetch-page.js';
import { journalAdmissions } from '../stages/journal-admissions.js';
import { readSitemaps } from '../stages/read-sitemaps.js';
import { reuseStored } from '../stages/reuse-stored.js';
import { followPolicyStep } from '../stages/follow-policy.js';
import { hostLimitStep } from '../stages/host-limit.js';
import { normalizeLinksStep } from '../stages/normalize-links.js';
import { refusePrivateHostsStep } from '../stages/refuse-private-hosts.js';
import { obeyRobots } from '../stages/obey-robots.js';
import { robotsAllowedStep } from '../stages/robots-allowed.js';
import { describeAndStore } from '../stages/describe-and-store.js';
import type { PreviousCopy } from '../stages/store-document.js';
import { scheduleRecrawl } from '../stages/schedule-recrawl.js';
import { skipNotDue } from '../stages/skip-not-due.js';
import { trapLimitsStep } from '../stages/trap-limits.js';
import { inputSeeds } from '../input/input-seeds.js';
import type { CrawlContext } from './crawl-context.js';
import type { CrawlSpec, Release } from './crawl.js';
import { linksOf, type Fetched, type Outcome } from '../model/outcome.js';
import type { Admissible } from '../stages/drop-when.js';
import { endOf } from '../model/request-end.js';
import { renderHook } from './render-hook.js';

/**
 * Input files are read on only while the frontier holds fewer pending requests than this: a
 * million-line file then costs the frontier about 1 MB (packed requests), not the whole file.
 */
export const INPUT_ROOM = 10_000;

/**
 * Seeds as written in the configuration, at depth 0; on recrawl, then every page of the last crawl
 * that is due (each is revalidated), at its old depth; on resume, links the interrupted run may
 * have lost, and the links of the pages kept without a request (not due); then the seeds of the
 * input files (`-i FILE`), as they arrive, each widening the scope.
 */
export function seedsOf(ctx: CrawlContext): Observable<Candidate> {
  const seeds = ctx.config.startingPoints.map((href): Candidate => ({ href, depth: 0, seed: true }));
  const due = [...ctx.state.known.values()].filter((page) => ctx.schedule.isDue(page.record));
  const known = due.map(
    ({ record: r }): Candidate => ({ href: r.url, url: r.url, vetted: true, depth: r.depth, originalUrl: r.originalUrl }),
  );
  const first = from([...seeds, ...known.sort((a, b) => a.depth - b.depth), ...ctx.state.relinks]);
  if (ctx.inputs.length === 0) return first;
  return concat(
    first,
    inputSeeds(ctx.inputs, {
      room: () => ctx.frontier.size < INPUT_ROOM,
      seed: (url) => ctx.admission.widenScope(url),
      warn: (message) => ctx.log.warn(message),
    }),
  );
}

/**
 * If-Modified-Since / If-None-Match for a page visited before: from its last visit that a shared
 * crawl keeps in Redis, else from the copy the last crawl stored (its Last-Modified, else its server Date).
 */
function validatorsOf(ctx: CrawlContext): ((req: CrawlRequest) => Validators | undefined) | undefined {
  const { visits } = ctx;
  if (ctx.state.known.size === 0 && visits === undefined) return undefined;
  return (req) => {
    const visit = visits?.(req.url);
    if (visit) return { etag: visit.etag, lastModified: visit.lastModified };
    const page = ctx.state.known.get(req.url);
    return page && { etag: page.record.etag, lastModified: page.record.lastModified ?? page.record.serverDate };
  };
}

/** Where the last crawl stored a page (a recrawl): its new copy replaces that one, so each URL keeps its path. */
function previousCopy(ctx: CrawlContext): PreviousCopy | undefined {
  if (ctx.state.known.size === 0) return undefined;
  return (url) => ctx.state.known.get(url)?.record.localPath;
}

/** The WARC hook of the fetch: a 304 refers back to the capture of the last crawl; a rendered DOM follows its response. */
function archiveHook(ctx: CrawlContext): ((req: CrawlRequest, res: FetchResponse, rendered?: Buffer) => Promise<void>) | undefined {
  const archive = ctx.fetcher.archive;
  if (archive === undefined) return undefined;
  return (req, res, rendered) => {
    const page = res.status === 304 ? ctx.state.known.get(req.url) : undefined;
    return archive.record(req.url, res, page && { url: req.url, date: warcDate(Date.parse(page.record.fetchedAt)) }, rendered);
  };
}

/**
 * Where a user's stages go in {@link defaultAdmit}: each list runs in its order at its place, so a
 * stage of one's own never costs a default one (Scrapy's middleware slots, undici's interceptors).
 */
export interface AdmitStages {
  /** After the link is normalized and has passed the traps, the address guard, scope and lists; before the seen-set. Drop a link by not passing it on. */
  readonly afterFilters?: readonly MonoTypeOperatorFunction<Admissible>[];
  /** After every default check (seen-set, host cap, robots.txt), before the request is journaled and queued. */
  readonly beforeQueue?: readonly MonoTypeOperatorFunction<CrawlRequest>[];
}

/**
 * Admission, cheapest checks first (STYLE habit 12): normalize, traps, literal private addresses,
 * scope and lists, in-links, seen-set, priority, host cap, cached robots. `prioritizer` gives each
 * request its level (SPEC §10); `stages` puts a user's own checks in their places.
 *
 * @example
 * // no URL with a session id in its path
 * defaultAdmit(ctx, defaultPrioritizer, { afterFilters: [filter((link) => !link.url.includes(';jsessionid='))] })
 */
export function defaultAdmit(ctx: CrawlContext, prioritizer: Prioritizer = defaultPrioritizer, stages: AdmitStages = {}): OperatorFunction<Candidate, CrawlRequest> {
  const c = ctx.config;
  const a = ctx.admission;
  const levels = a.priority.levels > 1;
  // Depth-first moves every URL found again up the stack already (and journals a level only when it
  // rose); breadth-first lets through only one whose level rose, and so does a worker of a shared
  // crawl (no set of started URLs), whose frontier moves it up in Redis.
  const dfs = c.traversal === 'dfs';
  const reconsider = levels && (!dfs || a.started === undefined) ? levelRose(prioritizer, a.priority) : undefined;
  const rose = levels && dfs ? requestLevelRose(prioritizer, a.priority) : undefined;
  // What a link is, then whether it is new, each a chain of steps run as one operator: a crawl finds
  // hundreds of thousands of links, most of them dropped as seen, and an RxJS stage for each check
  // took a fifth of admission's CPU. A user's stages go between the chains; without them, one chain.
  const vetted = andThen(normalizeLinksStep(a.report), trapLimitsStep(c, a.report), refusePrivateHostsStep(a.guard, c.resolve, a.report), followPolicyStep(a.policy, a.report));
  const seen = dedupStep(a.seen, a.report, a.started, reconsider, levels ? levelOf(prioritizer, a.priority) : undefined);
  const known = levels ? andThen(countInLinksStep(a.inLinks), seen) : seen;
  const fresh = andThen(known, hostLimitStep(c.maxPagesPerHost, a.hostCounts, a.report), robotsAllowedStep(ctx.hosts.robots, c.userAgent, a.report));
  const checks = (stages.afterFilters?.length ?? 0) === 0 ? stepOperator(andThen(vetted, fresh)) : pipe(stepOperator(vetted), chain(stages.afterFilters), stepOperator(fresh));
  return pipe(checks, chain(stages.beforeQueue), journalAdmissions(ctx.state.journal, rose));
}

/**
 * Where a user's stages go in {@link defaultUnit}: each list runs in its order at its place, so a
 * stage of one's own keeps robots.txt, conditional requests, the WARC, sitemaps and the recrawl
 * schedule. Write them with {@link passOutcomes}: a stage gets the values of its own kind, and
 * every finished outcome passes it by.
 */
export interface UnitStages {
  /** Before robots.txt and the fetch: each request. Answer with an outcome (`skipped`) to leave it unfetched. */
  readonly beforeFetch?: readonly OperatorFunction<CrawlRequest | Outcome, CrawlRequest | Outcome>[];
  /** After the fetch and its archiving, before parsing: each page's response (a 304 on recrawl already carries its stored copy; sitemaps are read by then). */
  readonly afterFetch?: readonly OperatorFunction<Fetched | Outcome, Fetched | Outcome>[];
  /** After the page is parsed, stored and scheduled: each outcome, on its way to the sinks and the frontier. */
  readonly afterParse?: readonly MonoTypeOperatorFunction<Outcome>[];
}

/** A list of a user's stages as one operator. */
function chain<T>(stages: readonly MonoTypeOperatorFunction<T>[] | undefined): MonoTypeOperatorFunction<T> {
  return stages === undefined || stages.length === 0 ? identity : (source) => stages.reduce((piped, stage) => piped.pipe(stage), source);
}

/**
 * One request's work: robots.txt, fetch, then read it as a sitemap, or parse and store it on the
 * document workers (the same work as `parseDocument` + `storeDocument`, off the main thread).
 * `release` is the crawl's ({@link CrawlSpec.unit}): the host is freed once the fetch is over.
 * `stages` puts a user's own stages in their places.
 *
 * @example
 * // PDFs are not parsed or stored: skipped, with a reason the stats count
 * const noPdfs = passOutcomes((f: Fetched): Fetched | Outcome =>
 *   f.response.headers['content-type']?.startsWith('application/pdf') ? { kind: 'skipped', req: f.req, reason: 'rejected', message: 'a PDF' } : f);
 * crawl({ ...defaultSpec(ctx), unit: (release) => failSafe(defaultUnit(ctx, release, { afterFetch: [noPdfs] })) })
 */
export function defaultUnit(ctx: CrawlContext, release?: Release, stages: UnitStages = {}): OperatorFunction<CrawlRequest, Outcome> {
  const c = ctx.config;
  const { robots, politeness } = ctx.hosts;
  const { options } = ctx.fetcher;
  const docs = ctx.documents;
  // Built once: the unit is applied to every request, its stages need not be made again each time.
  return pipe(
    // A shared adaptive recrawl: a link to a page another machine keeps without a request (one pipe: rxjs types nine operators at most).
    pipe(chain(stages.beforeFetch), ctx.visits && ctx.schedule.adaptive ? skipNotDue(ctx.visits, ctx.schedule) : identity),
    obeyRobots({ robots, politeness, userAgent: c.userAgent, maxRetries: c.maxRetries, maxCrawlDelayMs: c.maxCrawlDelayMs, signal: options.signal, sitemaps: c.sitemaps }),
    fetchPage({
      ...options, politeness, maxRetries: c.maxRetries, maxRedirects: c.maxRedirects, validatorsOf: validatorsOf(ctx),
      ...(release ? { fetched: release } : {}),
      archive: archiveHook(ctx),
      render: renderHook(ctx),
    }),
    readSitemaps(),
    reuseStored(ctx.state.known, docs.store, ctx.visits),
    chain(stages.afterFetch),
    describeAndStore(docs.pool, docs.contentSeen, ctx.admission.report, docs.near, previousCopy(ctx)),
    // Under the fixed policy every page is due at every recrawl: nothing to schedule.
    ctx.schedule.adaptive ? scheduleRecrawl(ctx.schedule, ctx.state.known, ctx.visits) : identity,
    chain(stages.afterParse),
  );
}

/** Wraps a unit so that an unexpected error of one request becomes its `failed` outcome (STYLE habit 10). */
export function failSafe(unit: OperatorFunction<CrawlRequest, Outcome>): OperatorFunction<CrawlRequest, Outcome> {
  return mergeMap((req: CrawlRequest) =>
    of(req).pipe(
      unit,
      catchError((err: unknown) => {
        const e = err as { code?: string; message?: string };
        return of<Outcome>({ kind: 'failed', req, code: e.code ?? 'error', message: e.message ?? String(err) });
      }),
    ),
  );
}

/** What {@link defaultSpec} may be given instead of its defaults: the seeds, the prioritizer, and a user's stages in their places. */
export interface DefaultSpecOptions {
  /** Default: {@link seedsOf}. */
  readonly seeds?: Observable<Candidate>;
  /** Default: {@link defaultPrioritizer} (SPEC §10). */
  readonly prioritizer?: Prioritizer;
  readonly admit?: AdmitStages;
  readonly unit?: UnitStages;
}

/**
 * The default crawl of SPEC §1, ready for {@link crawl}: seeds from the configuration, the default
 * admission and unit, each request's end as {@link endOf} tells it (retries put back in the
 * frontier), and the page limit.
 *
 * @example
 * crawl(defaultSpec(ctx)).pipe(recordStats(ctx.stats), writeIndex(writers)).subscribe();
 * crawl({ ...defaultSpec(ctx, { unit: { afterFetch: [noPdfs] } }), stop: sinks.stop }).pipe(defaultSinks(ctx, sinks));
 */
export function defaultSpec(ctx: CrawlContext, opts: DefaultSpecOptions = {}): CrawlSpec<Outcome> {
  const max = ctx.config.maxPageNumber;
  const before = ctx.state.documents;
  return {
    seeds: opts.seeds ?? seedsOf(ctx),
    admit: defaultAdmit(ctx, opts.prioritizer, opts.admit),
    unit: (release) => failSafe(defaultUnit(ctx, release, opts.unit)),
    links: linksOf,
    end: endOf,
    frontier: ctx.frontier,
    concurrency: ctx.config.requestsInFlight,
    pause: ctx.control.paused$,
    added: ctx.control.added$,
    ...(max > 0 ? { mayStart: (active: number) => before + ctx.stats.documents + active < max } : {}),
  };
}

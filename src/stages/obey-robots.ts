import type { OperatorFunction } from 'rxjs';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import type { Politeness } from '../frontier/politeness.js';
import type { RobotsCache, RobotsVerdict } from '../robots/robots-cache.js';
import type { Outcome } from '../model/outcome.js';
import { passOutcomes } from './pass-outcomes.js';
import { originOf } from '../url/url-parts.js';
import { retryDelayMs } from '../fetch/retry-delay.js';
import { MAX_RETRY_AFTER_MS } from '../fetch/retry-after.js';
import { unavailableReason } from './robots-allowed.js';

/** What {@link obeyRobots} needs: the robots.txt cache, politeness, the user agent, and the retry and crawl-delay limits. */
export interface ObeyRobotsOptions {
  readonly robots: RobotsCache;
  readonly politeness: Politeness;
  /** The full User-Agent: its product token picks the robots.txt group. */
  readonly userAgent: string;
  readonly maxRetries: number;
  /** A Crawl-delay above this skips the host. 0 = no limit. */
  readonly maxCrawlDelayMs: number;
  /** Read the sitemaps of each host (SPEC §9): those its robots.txt names (`Sitemap:` lines); with `guess`, its /sitemap.xml as well. */
  readonly sitemaps?: boolean | 'guess';
  /** The crawl's stop: a robots.txt fetch it cut short leaves the request pending, its origin not given up. */
  readonly signal?: AbortSignal;
}

/**
 * Lets a request through only if its origin's robots.txt allows it. The first request to an origin
 * fetches robots.txt while it holds that host's slot, so the fetch is itself polite, and then goes
 * back to its place in the frontier (`requeue`) to wait the politeness delay before the page. A
 * robots.txt that cannot be had (5xx, network) is retried like a page, then the origin's URLs are
 * dropped as `robots-unavailable`.
 *
 * @example
 * of(req).pipe(obeyRobots({ robots, politeness, userAgent: 'tarantula/1', maxRetries: 2, maxCrawlDelayMs: 60_000 }))
 * //=> req, { kind: 'robots-fetched', req } after fetching robots.txt, or { kind: 'skipped', reason: 'robots' }
 */
export function obeyRobots(opts: ObeyRobotsOptions): OperatorFunction<CrawlRequest | Outcome, CrawlRequest | Outcome> {
  return passOutcomes((req: CrawlRequest): CrawlRequest | Outcome | Promise<Outcome> => {
    const origin = originOf(req.url);
    const cached = opts.robots.peek(origin);
    if (cached) return judge(req, origin, cached, opts) ?? req;
    // The robots.txt fetch was this host's request: the page waits its politeness delay, in its place.
    return opts.robots.get(origin).then((v): Outcome => {
      if (v.state === 'unavailable' && opts.signal?.aborted) return { kind: 'unfinished', req };
      const verdict = judge(req, origin, v, opts);
      // A host skipped for its Crawl-delay is skipped whole: its sitemaps too.
      const skipsHost = verdict?.kind === 'skipped' && verdict.reason === 'crawl-delay';
      const links = opts.sitemaps && v.state === 'ready' && !skipsHost ? sitemapsOf(req, origin, v.rules.sitemaps, opts.sitemaps === 'guess') : undefined;
      if (verdict === undefined) return { kind: 'robots-fetched', req, ...(links ? { links } : {}) };
      return links && verdict.kind === 'skipped' ? { ...verdict, links } : verdict;
    });
  });
}

/**
 * A host's sitemaps, found with its robots.txt, at the depth of the request that found them: its
 * `Sitemap:` lines, and its /sitemap.xml when told to `guess` (a request the user did not ask for,
 * which most hosts answer 404).
 */
function sitemapsOf(req: CrawlRequest, origin: string, listed: readonly string[], guess: boolean): Candidate[] | undefined {
  const hrefs = guess ? [...listed, `${origin}/sitemap.xml`] : listed;
  return hrefs.length === 0 ? undefined : hrefs.map((href) => ({ href, base: origin, depth: req.depth, sitemap: 0 }));
}

/** What ends the request here, or undefined when robots.txt lets it through. */
function judge(req: CrawlRequest, origin: string, verdict: RobotsVerdict, opts: ObeyRobotsOptions): Outcome | undefined {
  if (verdict.state === 'unavailable') {
    const asked = verdict.retryAfterMs;
    if (verdict.retry && req.attempt < opts.maxRetries && (asked === undefined || asked <= MAX_RETRY_AFTER_MS)) {
      opts.politeness.backoff(req.host, asked ?? retryDelayMs(req.attempt));
      const retry: Outcome = { kind: 'retry', req, retry: { ...req, attempt: req.attempt + 1 }, code: verdict.code, message: verdict.message };
      return retry;
    }
    opts.robots.giveUp(origin, verdict);
    // A certificate that does not verify is the site's failure, under its own code, not a robots.txt matter.
    if (verdict.code.startsWith('tls-')) return { kind: 'failed', req, code: verdict.code, message: verdict.message };
    return { kind: 'skipped', req, reason: unavailableReason(verdict), message: verdict.message };
  }
  const delay = opts.robots.crawlDelayMs(req.host);
  if (opts.maxCrawlDelayMs > 0 && delay > opts.maxCrawlDelayMs)
    return { kind: 'skipped', req, reason: 'crawl-delay', message: `Crawl-delay ${delay / 1000} s is above max-crawl-delay` };
  if (!verdict.rules.isAllowed(req.url, opts.userAgent)) return { kind: 'skipped', req, reason: 'robots' };
  return undefined;
}

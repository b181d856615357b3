import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outcome } from '../model/outcome.js';
import type { CrawlLogger } from '../log/create-logger.js';

/**
 * Logs each outcome at the level SPEC §3 gives it: a `page` line per document and per 4xx
 * (log-level 1), a warning per other failure, redirects, retries and skips as debug (log-level 2).
 * A request the stop cut short is no failure: only debug here; the end of the crawl counts them in one line.
 *
 * @example
 * crawl(spec).pipe(logOutcomes(log)).subscribe();
 * //=> {"level":25,"url":"http://a.test/","status":200,"type":"html","ms":12,"msg":"fetched"}
 */
export function logOutcomes(log: CrawlLogger): MonoTypeOperatorFunction<Outcome> {
  const pages = log.isLevelEnabled('page');
  const debug = log.isLevelEnabled('debug');
  return tap((out) => {
    switch (out.kind) {
      case 'document':
        if (out.doc.linksCut > 0)
          log.warn({ url: out.req.url, kept: out.doc.links.length, cut: out.doc.linksCut }, 'max-links-per-page cut the links of this page');
        if (pages)
          log.page(
            {
              url: out.req.url, status: out.status, type: out.doc.type, bytes: out.bytes, ms: out.durationMs, depth: out.req.depth, links: out.links.length,
              ...(out.indexed ? {} : { noindex: true }),
              ...(out.truncated ? { truncated: true } : {}),
              ...(out.doc.duplicateOf !== null ? { duplicateOf: out.doc.duplicateOf } : {}),
              ...(out.doc.nearDuplicateOf !== null ? { nearDuplicateOf: out.doc.nearDuplicateOf } : {}),
            },
            'fetched',
          );
        break;
      case 'failed': {
        const detail = out.status ? { url: out.req.url, code: out.code, status: out.status, attempts: out.req.attempt + 1 } : { url: out.req.url, code: out.code, attempts: out.req.attempt + 1 };
        // A 4xx is the web as it is (a dead link), not trouble with the crawl: a page line, not a warning.
        if (out.status !== undefined && out.status >= 400 && out.status < 500) {
          if (pages) log.page(detail, out.message);
        } else log.warn(detail, out.message);
        break;
      }
      case 'sitemap':
        if (out.status >= 400) {
          if (debug) log.debug({ url: out.req.url, status: out.status }, 'no sitemap');
        } else if (pages) log.page({ url: out.req.url, status: out.status, urls: out.urls, sitemaps: out.sitemaps, ...(out.cut ? { cut: out.cut } : {}) }, 'sitemap read');
        break;
      case 'revalidated':
        if (pages) log.page({ url: out.req.url, status: out.status, depth: out.req.depth }, 'unchanged; its stored copy is in another repository of the crawl');
        break;
      case 'redirect':
        if (debug) log.debug({ url: out.req.url, status: out.status, location: out.location }, 'redirect');
        break;
      case 'retry':
        if (pages) log.page({ url: out.req.url, code: out.code, attempt: out.retry.attempt }, `will retry: ${out.message}`);
        break;
      case 'unfinished':
        if (debug) log.debug({ url: out.req.url }, 'stopped in flight: still pending');
        break;
      case 'skipped':
        if (out.reason === 'robots-unavailable' || out.reason === 'crawl-delay' || out.reason === 'private-address') log.warn({ url: out.req.url, reason: out.reason }, out.message ?? 'skipped');
        else if (debug) log.debug({ url: out.req.url, reason: out.reason }, out.message ?? 'skipped');
        break;
    }
  });
}

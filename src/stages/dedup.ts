import { mergeMap, type OperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../frontier/crawl-request.js';
import type { SeenSet } from '../frontier/seen-set.js';
import { urlMd5 } from '../url/url-md5.js';
import type { Admissible, DropReport } from './admissible.js';

/**
 * Drops URLs already admitted and turns the rest into {@link CrawlRequest}s. The seen-set is passed
 * in (shared by every unit of the crawl, persisted across runs); the URL's MD5 is computed here once
 * and serves as both the fingerprint and the index record's MD5.
 *
 * @example
 * of(admissible, admissible).pipe(dedup(seen, report)) //=> one CrawlRequest, then 'duplicate' reported
 */
export function dedup(seen: SeenSet, report: DropReport): OperatorFunction<Admissible, CrawlRequest> {
  return mergeMap((a: Admissible) => {
    const key = urlMd5(a.url);
    if (!seen.add(key)) {
      report('duplicate', a.url);
      return [];
    }
    const c = a.candidate;
    const req: CrawlRequest = {
      url: a.url,
      key,
      host: a.parsed.host,
      depth: c.depth,
      originalUrl: c.originalUrl ?? c.href,
      redirects: c.redirects ?? 0,
      attempt: 0,
      ...(c.referrer !== undefined ? { referrer: c.referrer } : {}),
    };
    return [req];
  });
}

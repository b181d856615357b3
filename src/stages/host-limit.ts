import type { MonoTypeOperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../model/crawl-request.js';
import { dropStep } from './drop-when.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';
import { type DropReport } from '../model/filter-reason.js';

/**
 * `max-pages-per-host`: admits at most `max` new URLs per host, which bounds the documents fetched
 * from it. Runs after the seen-set, so a link found on many pages counts once. `counts` is shared
 * crawl state, passed in. 0 = no limit.
 *
 * @example
 * of(r1, r2).pipe(hostLimit(1, new Map(), report)) //=> r1 ('host-limit' reported for r2)
 */
export function hostLimit(max: number, counts: Map<string, number>, report: DropReport): MonoTypeOperatorFunction<CrawlRequest> {
  return stepOperator(hostLimitStep(max, counts, report));
}

/** {@link hostLimit} as an {@link AdmissionStep}. */
export function hostLimitStep(max: number, counts: Map<string, number>, report: DropReport): AdmissionStep<CrawlRequest, CrawlRequest> {
  return dropStep<CrawlRequest>(report, (req) => {
    // A sitemap is a list of the host's URLs, not one of its documents.
    if (max <= 0 || req.again || req.sitemap !== undefined) return undefined;
    const n = counts.get(req.host) ?? 0;
    if (n >= max) return 'host-limit';
    counts.set(req.host, n + 1);
    return undefined;
  });
}

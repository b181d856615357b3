import type { OperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { Outcome } from '../model/outcome.js';
import type { PageVisit } from '../model/page-visit.js';
import type { RecrawlSchedule } from '../state/recrawl-schedule.js';
import { passOutcomes } from './pass-outcomes.js';

/**
 * A shared crawl's adaptive recrawl: a request for a page whose last visit in the crawl (`visits`)
 * says it is not due yet is not sent, but `skipped` (`not-due`). The machine that holds the page's
 * copy keeps it without a request, as a recrawl in one process does; the request came from a link
 * that a worker found (in one process, the seen-set holds such a page and drops the link).
 *
 * @example
 * of(req).pipe(skipNotDue(ctx.visits, ctx.schedule)) //=> { kind: 'skipped', req, reason: 'not-due' } until its nextFetch
 */
export function skipNotDue(visits: (url: string) => PageVisit | undefined, schedule: RecrawlSchedule): OperatorFunction<CrawlRequest | Outcome, CrawlRequest | Outcome> {
  return passOutcomes((req: CrawlRequest): CrawlRequest | Outcome => {
    const visit = visits(req.url);
    return visit === undefined || schedule.isVisitDue(visit) ? req : { kind: 'skipped', req, reason: 'not-due', message: `not due before ${new Date(visit.nextFetch!).toISOString()}` };
  });
}

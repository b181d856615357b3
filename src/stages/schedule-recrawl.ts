import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outcome } from '../model/outcome.js';
import type { PageVisit } from '../model/page-visit.js';
import type { KnownPage } from '../state/crawl-state.js';
import type { RecrawlSchedule } from '../state/recrawl-schedule.js';

/**
 * Sets each document's next recrawl (`nextFetch`, `fetchIntervalHours`) from what this fetch found
 * against the page's last visit: `visits` (a shared crawl's, kept in Redis) when it knows the page,
 * else the last crawl's record. The last stage of the unit, so the journal and the index get the
 * record with it. A page revalidated whose record is elsewhere gets its next visit the same way.
 *
 * @example
 * of(req).pipe(..., describeAndStore(pool, seen, report), scheduleRecrawl(schedule, state.known))
 */
export function scheduleRecrawl(schedule: RecrawlSchedule, known: ReadonlyMap<string, KnownPage>, visits?: (url: string) => PageVisit | undefined): MonoTypeOperatorFunction<Outcome> {
  return map((out) => {
    if (out.kind === 'revalidated') return { ...out, visit: schedule.scheduleVisit(out.visit) };
    if (out.kind !== 'document') return out;
    return { ...out, record: schedule.schedule(out.record, visits?.(out.req.url) ?? known.get(out.req.url)?.record, out.unchanged) };
  });
}

import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outcome } from '../model/outcome.js';
import type { KnownPage } from '../state/crawl-state.js';
import type { RecrawlSchedule } from '../state/recrawl-schedule.js';

/**
 * Sets each document's next recrawl (`nextFetch`, `fetchIntervalHours`) from what this fetch found
 * against the last crawl's record of the page: the last stage of the unit, so the journal and the
 * index get the record with it.
 *
 * @example
 * of(req).pipe(..., describeAndStore(pool, seen, report), scheduleRecrawl(schedule, state.known))
 */
export function scheduleRecrawl(schedule: RecrawlSchedule, known: ReadonlyMap<string, KnownPage>): MonoTypeOperatorFunction<Outcome> {
  return map((out) =>
    out.kind === 'document' ? { ...out, record: schedule.schedule(out.record, known.get(out.req.url)?.record, out.unchanged) } : out,
  );
}

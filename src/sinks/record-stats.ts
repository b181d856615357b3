import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { CrawlStats } from './crawl-stats.js';
import type { Outcome } from '../model/outcome.js';

/**
 * Counts every outcome in the crawl's stats (documents by type, status, host; failures; drops).
 *
 * @example
 * crawl(spec).pipe(recordStats(stats)).subscribe(); stats.summary() //=> { documents: 12, ... }
 */
export function recordStats(stats: CrawlStats): MonoTypeOperatorFunction<Outcome> {
  return tap((out) => stats.record(out));
}

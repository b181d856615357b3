import type { MonoTypeOperatorFunction } from 'rxjs';
import { hostKey } from '../url/url-parts.js';
import { dropWhen, type Admissible, type DropReport } from './admissible.js';

/**
 * `max-pages-per-host`: admits at most `max` URLs per host (counting what was admitted, which bounds
 * the documents fetched from it). `counts` is shared crawl state, passed in. 0 = no limit.
 *
 * @example
 * of(a1, a2).pipe(hostLimit(1, new Map(), report)) //=> a1 ('host-limit' reported for a2)
 */
export function hostLimit(max: number, counts: Map<string, number>, report: DropReport): MonoTypeOperatorFunction<Admissible> {
  return dropWhen<Admissible>(report, (a) => {
    if (max <= 0) return undefined;
    const host = hostKey(a.url);
    const n = counts.get(host) ?? 0;
    if (n >= max) return 'host-limit';
    counts.set(host, n + 1);
    return undefined;
  });
}

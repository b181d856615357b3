import { from, mergeMap, of, type Observable, type OperatorFunction } from 'rxjs';
import { isOutcome, type InProgress, type Outcome } from '../model/outcome.js';

/**
 * Makes a unit stage from its work on one value still in progress: `work` gets each value of its
 * own kind, and every finished outcome an earlier stage made passes by unchanged. The types chain
 * the stages (`CrawlRequest → CrawlRequest | Outcome → Fetched | Outcome → Outcome`), so the
 * compiler rejects a unit put together in the wrong order.
 *
 * @example
 * const skipPdfs = passOutcomes((f: Fetched): Fetched | Outcome =>
 *   f.response.headers['content-type'] === 'application/pdf' ? { kind: 'skipped', req: f.req, reason: 'rejected' } : f);
 * of(req).pipe(obeyRobots(robotsOptions), fetchPage(fetchOptions), skipPdfs, describeAndStore(pool, contentSeen, report))
 * //=> one Outcome
 */
export function passOutcomes<In extends InProgress, Out extends InProgress | Outcome>(
  work: (value: In) => Out | Promise<Out>,
): OperatorFunction<In | Outcome, Out | Outcome> {
  return mergeMap((value): Observable<Out | Outcome> => {
    if (isOutcome(value)) return of(value);
    const result = work(value);
    return result instanceof Promise ? from(result) : of(result);
  });
}

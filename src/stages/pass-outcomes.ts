import { Observable, type OperatorFunction } from 'rxjs';
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
  // mergeMap's semantics (results in the order they settle; complete once the source has and every
  // promise settled; an error, thrown or rejected, ends it) without an inner Observable and its
  // subscription for each value: a unit runs several of these stages for every request.
  return (source) =>
    new Observable<Out | Outcome>((subscriber) => {
      let pending = 0;
      let ended = false;
      const settled = (out: Out): void => {
        if (subscriber.closed) return;
        subscriber.next(out);
        if (--pending === 0 && ended) subscriber.complete();
      };
      const failed = (err: unknown): void => subscriber.error(err);
      return source.subscribe({
        next: (value) => {
          if (isOutcome(value)) return subscriber.next(value);
          let result: Out | Promise<Out>;
          try {
            result = work(value);
          } catch (err) {
            return subscriber.error(err);
          }
          if (!(result instanceof Promise)) return subscriber.next(result);
          pending++;
          result.then(settled, failed);
        },
        error: failed,
        complete: () => {
          ended = true;
          if (pending === 0) subscriber.complete();
        },
      });
    });
}

import {
  Observable,
  Subscription,
  asyncScheduler,
  EMPTY,
  from,
  mergeMap,
  of,
  toArray,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import type { Frontier } from '../frontier/host-frontier.js';
import { ENDED, type RequestEnd } from '../model/request-end.js';

/** Frees the host of a request whose fetch is over: its politeness delay counts from now. Later calls for it do nothing. */
export type Release = (req: CrawlRequest) => void;

/** What {@link crawl} needs: where requests come from, how each is admitted and worked, where they wait, and how many run at once. */
export interface CrawlSpec<Out> {
  /** Seeds; the crawl waits for this to complete (it may be long-lived, like stdin). */
  readonly seeds: Observable<Candidate>;
  /** Candidate → admitted request: normalize, scope, lists, traps, seen-set. */
  readonly admit: OperatorFunction<Candidate, CrawlRequest>;
  /**
   * Builds the unit, once per crawl; the unit is subscribed once per request: robots → fetch → parse
   * → store. Failures must be values. `release` frees a request's host as soon as its fetch is over
   * (parsing and storing may go on), on the crawl's clock; a unit that never calls it has its host
   * freed when it completes.
   */
  readonly unit: (release: Release) => OperatorFunction<CrawlRequest, Out>;
  /** The feedback edge: links of an outcome to admit. */
  readonly links: (out: Out) => Iterable<Candidate>;
  /**
   * How the request of an outcome ended ({@link endOf} for outcomes), told to the frontier when its
   * unit completes: an end `again` (robots.txt fetched first, a retry, a request the stop cut short)
   * puts it back at the head of its host's queue, in its place. Without it every request is done.
   */
  readonly end?: (out: Out) => RequestEnd;
  readonly frontier: Frontier<CrawlRequest>;
  /** Requests in flight overall: from the pull until the frontier releases the request's host. */
  readonly concurrency: number;
  /**
   * Units in flight, requests included: a unit whose fetch has ended may still be parsing and
   * storing. Default: 2 × `concurrency`, so the network stays busy while pages are processed; 1 when
   * `concurrency` is 1, so that one thread fetches in exact breadth- or depth-first order.
   */
  readonly units?: number;
  /** Asked before each start with the number in flight: false stops pulling (a page limit); in-flight work finishes. */
  readonly mayStart?: (active: number) => boolean;
  /**
   * When this emits, no new request starts and the crawl completes once in-flight work is done; what
   * ends `again` meanwhile stays in the frontier, pending.
   */
  readonly stop?: Observable<unknown>;
  /** While its last value is true, no new request starts (in-flight work finishes); false starts pulling again. */
  readonly pause?: Observable<boolean>;
  /**
   * Seeds added while the crawl runs (a control API's): admitted as `seeds` are, but without keeping
   * the crawl alive; a batch being admitted holds its completion until it is in the frontier.
   */
  readonly added?: Observable<readonly Candidate[]>;
  readonly scheduler?: SchedulerLike;
}

/**
 * The crawl loop: pulls from the frontier only while a slot is free and a host is ready, runs each
 * request through `unit`, admits its links back into the frontier, and completes exactly when the seeds
 * have completed, nothing is in flight and the frontier is empty (or a limit or `stop` ends it).
 * Pending URLs never wait in an RxJS buffer: only the frontier holds them.
 *
 * @example
 * crawl({ seeds, admit, unit, links: (o) => o.links, frontier, concurrency: 16 }).subscribe(console.log);
 * //=> one outcome per request, then complete
 * @see ../../../shared/STYLE.md §2.4
 */
export function crawl<Out>(spec: CrawlSpec<Out>): Observable<Out> {
  const sch = spec.scheduler ?? asyncScheduler;
  return new Observable<Out>((subscriber) => {
    let active = 0; // units
    let fetching = 0; // of which requests not yet released
    const units = spec.units ?? (spec.concurrency === 1 ? 1 : 2 * spec.concurrency);
    const roomFor = (): boolean => fetching < spec.concurrency && active < units;
    let seedsDone = false;
    let stopping = false;
    let paused = false;
    /** Batches of `added` seeds still being admitted. */
    let admitting = 0;
    let pumping = false;
    let again = false;
    let wake: Subscription | undefined;
    let wakeAt = Infinity;
    const inner = new Subscription();
    // A request's first release frees a fetch slot; pull again at once: its host is free.
    const free = (req: CrawlRequest, end?: RequestEnd): void => {
      if (spec.frontier.release(req, sch.now(), end)) fetching--;
    };
    const exhausted = (): boolean => spec.frontier.exhausted === true;
    const unit = spec.unit((req) => {
      free(req);
      pump();
    });

    // A page's links admitted and pushed in one Observable of its own, not five operators: it is made for every page.
    const admitLinks = (out: Out): Observable<never> => {
      const links = spec.links(out);
      if (Array.isArray(links) && links.length === 0) return EMPTY;
      return new Observable<never>((admitted) => {
        const reqs: CrawlRequest[] = [];
        return from(links)
          .pipe(spec.admit)
          .subscribe({
            next: (req) => void reqs.push(req),
            error: (err: unknown) => admitted.error(err),
            complete: () => {
              try {
                spec.frontier.pushAll(reqs);
              } catch (err) {
                return admitted.error(err);
              }
              admitted.complete();
            },
          });
      });
    };

    const start = (req: CrawlRequest): void => {
      active++;
      fetching++;
      let end: RequestEnd = ENDED;
      inner.add(
        of(req)
          .pipe(
            unit,
            mergeMap((out) => {
              // A request put back stays put back, whatever else its unit emits.
              if (spec.end !== undefined && end.kind !== 'again') end = spec.end(out);
              // The outcome goes out before its links are admitted.
              subscriber.next(out);
              return admitLinks(out);
            }),
          )
          .subscribe({
            error: (err: unknown) => subscriber.error(err),
            complete: () => {
              active--;
              // Even when stopping: a request put back (a retry, one the stop cut short) stays pending.
              free(req, end);
              pump();
            },
          }),
      );
    };

    const pump = (): void => {
      if (pumping) {
        again = true; // trampoline: synchronous completions re-enter here (STYLE pitfall 4)
        return;
      }
      pumping = true;
      do {
        again = false;
        while (!stopping && !paused && roomFor() && !exhausted()) {
          if (spec.mayStart && !spec.mayStart(active)) break;
          const req = spec.frontier.pull(sch.now());
          if (req === undefined) break;
          start(req);
        }
      } while (again);
      pumping = false;
      if (active === 0 && admitting === 0 && (stopping || exhausted() || (spec.mayStart && !spec.mayStart(0)) || (seedsDone && spec.frontier.size === 0))) {
        subscriber.complete();
        return;
      }
      const at = spec.frontier.nextReadyAt();
      if (!stopping && !paused && at !== undefined && at < wakeAt && roomFor()) {
        wake?.unsubscribe();
        wakeAt = at;
        wake = sch.schedule(() => {
          wake = undefined;
          wakeAt = Infinity;
          pump();
        }, Math.max(0, at - sch.now()));
      }
    };

    if (spec.stop) {
      inner.add(
        spec.stop.subscribe(() => {
          stopping = true;
          wake?.unsubscribe();
          pump();
        }),
      );
    }
    if (spec.pause) {
      inner.add(
        spec.pause.subscribe((value) => {
          paused = value;
          if (paused) {
            wake?.unsubscribe();
            wake = undefined;
            wakeAt = Infinity;
          }
          pump();
        }),
      );
    }
    if (spec.added) {
      inner.add(
        spec.added.subscribe((batch) => {
          admitting++;
          inner.add(
            from(batch).pipe(spec.admit, toArray()).subscribe({
              next: (reqs) => spec.frontier.pushAll(reqs),
              error: (err: unknown) => subscriber.error(err),
              complete: () => {
                admitting--;
                pump();
              },
            }),
          );
        }),
      );
    }
    inner.add(
      spec.seeds.pipe(spec.admit).subscribe({
        next: (req) => {
          spec.frontier.push(req);
          pump();
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          seedsDone = true;
          pump();
        },
      }),
    );
    return () => {
      wake?.unsubscribe();
      inner.unsubscribe();
    };
  });
}

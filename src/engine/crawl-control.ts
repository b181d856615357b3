import { BehaviorSubject, concat, defer, distinctUntilChanged, from, Subject, type Observable } from 'rxjs';
import type { Candidate } from '../model/crawl-request.js';

/**
 * Steering of a running crawl from outside its pipeline (the control API): pause and resume it,
 * and add seeds to it. {@link defaultSpec} hands both to {@link crawl} (`pause`, `added`), so every
 * pipeline built on the default spec obeys them.
 *
 * @example
 * ctx.control.pause(); ctx.control.paused //=> true: no new request starts
 * ctx.control.add([{ href: 'https://a.test/', depth: 0, seed: true }]); ctx.control.resume();
 */
export class CrawlControl {
  private readonly pausing = new BehaviorSubject(false);
  private readonly seeds = new Subject<readonly Candidate[]>();
  /** Seeds added before the crawl subscribed: handed to it first. */
  private readonly early: (readonly Candidate[])[] = [];
  /** The crawl's `pause` input: true while paused. */
  readonly paused$: Observable<boolean> = this.pausing.pipe(distinctUntilChanged());
  /** The crawl's `added` input: batches of seeds to admit. */
  readonly added$: Observable<readonly Candidate[]> = defer(() => concat(from(this.early.splice(0)), this.seeds));

  get paused(): boolean {
    return this.pausing.value;
  }

  pause(): void {
    this.pausing.next(true);
  }

  resume(): void {
    this.pausing.next(false);
  }

  /** Admits seeds into the running crawl, or into the crawl about to start. */
  add(seeds: readonly Candidate[]): void {
    if (seeds.length === 0) return;
    if (this.seeds.observed) this.seeds.next(seeds);
    else this.early.push(seeds);
  }
}

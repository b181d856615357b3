import type { BackQueue, Entry } from './back-queue.js';
import { selectLevel, takeFrom } from './level-selector.js';

/**
 * Mercator's front queues inside one host's back queue: one queue per priority level (1 the
 * lowest, K the highest), and a selector that takes from the higher levels more often without
 * ever starving the lowest: a smooth weighted round robin (nginx's upstream selector) over the
 * levels that hold requests, level L weighing 2^(L−1). With levels 1 and 4 both waiting, 8 of
 * every 9 requests come from level 4 and the 9th from level 1, interleaved rather than in bursts.
 * The same selection decides which end is "next" for both orders: `popFront`/`frontSeq` for
 * breadth-first, `popBack`/`backSeq` for depth-first, so the frontier's ready heap, which compares
 * the arrival number of each host's next request, works as with one queue.
 *
 * @example
 * const q = new FrontQueues(4, (r: { level: number }) => r.level, () => new ObjectQueue(), 'a.test');
 * q.pushBack({ level: 1 }, 0); q.pushBack({ level: 4 }, 1);
 * q.popFront() //=> { req: { level: 4 }, seq: 1 }
 */
export class FrontQueues<R> implements BackQueue<R> {
  // Most hosts only ever hold requests of one level: they get that level's queue alone, and the
  // arrays of every level only when a second level arrives (a few hundred bytes a host saved).
  private only: BackQueue<R> | undefined;
  private onlyLevel = 0;
  private queues: (BackQueue<R> | undefined)[] | undefined;
  /** Each level's queued requests, and the selector's running credit of each (`level-selector.ts`). */
  private counts: number[] | undefined;
  private credit: number[] | undefined;
  /** The level {@link selected} chose, until a take or a newly waiting level changes it (the ready heap asks often). */
  private chosen = -1;
  size = 0;

  constructor(
    private readonly levels: number,
    private readonly levelOf: (req: R) => number,
    /** Makes one level's queue for the host `name`: shared by every host of a frontier. */
    private readonly make: (name: string) => BackQueue<R>,
    private readonly name: string,
    /** The host's queue so far, all of one level (0-based): it becomes that level's queue. */
    first?: { readonly queue: BackQueue<R>; readonly level: number },
  ) {
    if (first === undefined) return;
    this.only = first.queue;
    this.onlyLevel = first.level;
    this.size = first.queue.size;
  }

  /**
   * The levels' queues of a host so far held otherwise (a small queue grown out of its arena), with
   * the selector's credits: the requests go on in the order they would have.
   */
  static resumed<R>(
    levels: number,
    levelOf: (req: R) => number,
    make: (name: string) => BackQueue<R>,
    name: string,
    queues: (BackQueue<R> | undefined)[],
    credit: number[],
  ): FrontQueues<R> {
    const q = new FrontQueues(levels, levelOf, make, name);
    q.queues = queues;
    q.counts = queues.map((level) => level?.size ?? 0);
    q.credit = credit;
    q.size = q.counts.reduce((a, b) => a + b, 0);
    return q;
  }

  /** The 0-based level of `req`: its prioritizer's level clamped to 1..K. */
  static levelIndex(levels: number, level: number): number {
    return Math.min(levels, Math.max(1, level)) - 1;
  }

  /** Queues a request at the back of its level. */
  pushBack(req: R, seq: number): void {
    this.queueFor(req).pushBack(req, seq);
  }

  /** Queues a request at the front of its level (depth-first, or put back in its place). */
  pushFront(req: R, seq: number): void {
    this.queueFor(req).pushFront(req, seq);
  }

  /** Takes the next request breadth-first, from the level the selector picks. */
  popFront(): Entry<R> | undefined {
    return this.take((q) => q.popFront());
  }

  /** Takes the next request depth-first, from the level the selector picks. */
  popBack(): Entry<R> | undefined {
    return this.take((q) => q.popBack());
  }

  /** The arrival number of the request `popFront` would take. */
  frontSeq(): number {
    return this.next().frontSeq();
  }

  /** The arrival number of the request `popBack` would take. */
  backSeq(): number {
    return this.next().backSeq();
  }

  /** Every queued request, in no particular order. */
  *requests(): IterableIterator<R> {
    if (this.only !== undefined) yield* this.only.requests();
    for (const q of this.queues ?? []) if (q !== undefined) yield* q.requests();
  }

  /** The queue the next take will use. */
  private next(): BackQueue<R> {
    return this.only ?? this.queues![this.selected()]!;
  }

  /** The level the next take will use: the highest credit after this round's weights are added; ties go to the higher level. */
  private selected(): number {
    if (this.chosen >= 0) return this.chosen;
    return (this.chosen = selectLevel(this.counts!, this.credit!));
  }

  private take(pop: (q: BackQueue<R>) => Entry<R> | undefined): Entry<R> | undefined {
    if (this.size === 0) return undefined;
    this.size--;
    if (this.only !== undefined) return pop(this.only);
    const pick = this.selected();
    takeFrom(this.counts!, this.credit!, pick);
    this.chosen = -1;
    return pop(this.queues![pick]!);
  }

  /** The queue of `req`'s level, with the request counted in. */
  private queueFor(req: R): BackQueue<R> {
    const at = FrontQueues.levelIndex(this.levels, this.levelOf(req));
    this.size++;
    if (this.queues === undefined) {
      if (this.only === undefined || this.only.size === 0) {
        if (this.only === undefined || this.onlyLevel !== at) this.only = this.make(this.name);
        this.onlyLevel = at;
      }
      if (at === this.onlyLevel) return this.only;
      this.queues = new Array<BackQueue<R> | undefined>(this.levels).fill(undefined);
      this.counts = new Array<number>(this.levels).fill(0);
      this.credit = new Array<number>(this.levels).fill(0);
      this.queues[this.onlyLevel] = this.only;
      this.counts[this.onlyLevel] = this.only.size;
      this.only = undefined;
    }
    if (this.counts![at]!++ === 0) this.chosen = -1; // a level joins the round
    return (this.queues[at] ??= this.make(this.name));
  }
}

import { PackedQueue, type BackQueue, type Entry, type RequestCodec } from './back-queue.js';
import { Deque } from './deque.js';
import type { Block, SegmentStore } from './segment-store.js';

/**
 * One host's back queue whose middle lives on disk (Mercator's frontier): a packed head in memory
 * where the next requests are taken, the blocks of a {@link SegmentStore} after it, and a packed
 * tail in memory where new requests arrive. While the store's budget is not spent, everything
 * stays in the tail (a plain {@link PackedQueue}); past it, a push moves the tail's older entries
 * to a block once they fill {@link SegmentStore.spillBytes}, keeping in memory the end the queue is
 * taken from (breadth-first: the first entries, moved to the head; depth-first: the newest). A take
 * that finds its end empty reads the next block back whole. Every entry keeps its place and its
 * arrival number, so breadth-first, depth-first and the priority levels (one such queue a level)
 * take requests in exactly the order they would in memory.
 *
 * @example
 * const q = new SpillingQueue('a.test', crawlRequestCodec, store, false);
 * q.pushBack(req, 0); q.popFront() //=> { req, seq: 0 }
 */
/** The blocks of every queue that has none (most hosts, all their life): never pushed to, a queue makes its own to spill. */
const NO_BLOCKS = new Deque<Block>(1);

export class SpillingQueue<R> implements BackQueue<R> {
  /** Entries before the blocks: made only once there are blocks, or entries put back before them. */
  private head: PackedQueue<R> | undefined;
  private blocks = NO_BLOCKS;
  private readonly tail: PackedQueue<R>;
  /** The bytes this queue last counted in the store's `held`. */
  private held = 0;
  size = 0;

  constructor(
    private readonly host: string,
    private readonly codec: RequestCodec<R>,
    private readonly store: SegmentStore,
    /** Taken from the back (depth-first) rather than the front. */
    private readonly lifo: boolean,
  ) {
    this.tail = new PackedQueue(host, codec);
  }

  pushBack(req: R, seq: number): void {
    this.tail.pushBack(req, seq);
    this.size++;
    if (this.store.over && this.tail.bytes >= this.store.spillBytes) this.spill();
    this.count();
  }

  pushFront(req: R, seq: number): void {
    if (this.blocks.size === 0 && (this.head?.size ?? 0) === 0) this.tail.pushFront(req, seq);
    else (this.head ??= new PackedQueue(this.host, this.codec)).pushFront(req, seq);
    this.size++;
    this.count();
  }

  popFront(): Entry<R> | undefined {
    if (this.size === 0) return undefined;
    if ((this.head?.size ?? 0) === 0 && this.blocks.size > 0) this.refill(this.blocks.popFront()!, (this.head ??= new PackedQueue(this.host, this.codec)));
    const entry = (this.head?.size ?? 0) > 0 ? this.head!.popFront() : this.tail.popFront();
    return this.taken(entry);
  }

  popBack(): Entry<R> | undefined {
    if (this.size === 0) return undefined;
    if (this.tail.size === 0 && this.blocks.size > 0) this.refill(this.blocks.popBack()!, this.tail);
    const entry = this.tail.size > 0 ? this.tail.popBack() : this.head!.popBack();
    return this.taken(entry);
  }

  frontSeq(): number {
    if ((this.head?.size ?? 0) > 0) return this.head!.frontSeq();
    return this.blocks.size > 0 ? this.blocks.peekFront()!.firstSeq : this.tail.frontSeq();
  }

  backSeq(): number {
    if (this.tail.size > 0) return this.tail.backSeq();
    return this.blocks.size > 0 ? this.blocks.peekBack()!.lastSeq : this.head!.backSeq();
  }

  *requests(): IterableIterator<R> {
    if (this.head !== undefined) yield* this.head.requests();
    for (const block of this.blocks) {
      const q = new PackedQueue<R>(this.host, this.codec);
      q.pushBackFramedBy(block.bytes, block.count, (buf, at) => this.store.read(block, buf, at));
      yield* q.requests();
    }
    yield* this.tail.requests();
  }

  /** Moves the tail's older entries to blocks, keeping the end that is taken next in memory. */
  private spill(): void {
    // Breadth-first takes from the front: with nothing before the tail, its first entries become the head.
    if (!this.lifo && this.blocks.size === 0 && (this.head?.size ?? 0) === 0) this.move(this.store.keepBytes);
    const keep = this.lifo ? this.store.keepBytes : 0;
    while (this.tail.bytes - keep >= this.store.spillBytes) {
      const run = this.tail.frontRun(keep, this.store.maxBlockBytes)!;
      const block = this.store.write(run);
      // The disk failed: the entries stay in memory, pending as before.
      if (block === undefined) return;
      this.tail.dropFront(run.bytes.length, run.count);
      if (this.blocks === NO_BLOCKS) this.blocks = new Deque<Block>();
      this.blocks.pushBack(block);
    }
  }

  /** Moves up to `bytes` of the tail's first entries to the (empty) head. */
  private move(bytes: number): void {
    const run = this.tail.frontRun(0, bytes);
    if (run === undefined) return;
    (this.head ??= new PackedQueue(this.host, this.codec)).pushBackFramed(run.bytes, run.count);
    this.tail.dropFront(run.bytes.length, run.count);
  }

  private refill(block: Block, into: PackedQueue<R>): void {
    into.pushBackFramedBy(block.bytes, block.count, (buf, at) => this.store.take(block, buf, at));
  }

  private taken(entry: Entry<R> | undefined): Entry<R> | undefined {
    this.size--;
    // An emptied head goes: most hosts never need one again.
    if (this.head !== undefined && this.head.size === 0 && this.blocks.size === 0) this.head = undefined;
    this.count();
    return entry;
  }

  /** Tells the store how many bytes this queue holds in memory now. */
  private count(): void {
    const held = (this.head?.footprint ?? 0) + this.tail.footprint;
    this.store.held += held - this.held;
    this.held = held;
  }
}

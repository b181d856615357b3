import { ArenaSlabs } from './arena-slabs.js';
import type { BackQueue, Entry, RequestCodec } from './back-queue.js';
import { FrontQueues } from './front-queues.js';
import { selectLevel, takeFrom } from './level-selector.js';

/** What the small queues of one frontier share. */
export interface SmallQueueKind<R> {
  readonly codec: RequestCodec<R>;
  /** Priority levels. */
  readonly levels: number;
  /** A request's level, 1 (lowest) to `levels`; absent with one level. */
  readonly levelOf: ((req: R) => number) | undefined;
  /** The spill files, whose budget counts the arenas' bytes too. */
  readonly store: { held: number } | undefined;
  /** Where the arenas are carved from. */
  readonly slabs: ArenaSlabs;
}

/** Bytes around each record: its length before and after, its arrival number and its level. */
const FRAME = 13;
/** The arena of a queue that holds nothing: most hosts of a broad crawl are known long before and after they hold a URL. */
const NO_ARENA = Buffer.alloc(0);

/**
 * A host's few pending requests, of every priority level, in one packed arena:
 * `[length][seq][level][request][length]`. A broad crawl holds tens of thousands of hosts with two
 * or three URLs each, where a queue a level ({@link FrontQueues} over packed queues) costs several
 * objects and a buffer per level, some 2.8 KB a host of two levels against some 0.9 KB here. A take
 * uses the levels' selector as {@link FrontQueues} does (`level-selector.ts`) and looks for the
 * first (breadth-first) or last (depth-first) entry of the chosen level, closing the gap from the
 * nearer end: linear in the entries, which the frontier bounds by growing the host into its
 * queues a level ({@link grown}) past a few KiB.
 *
 * @example
 * const q = new SmallQueue('a.test', { codec: crawlRequestCodec, levels: 4, levelOf: (r) => r.level ?? 1, store: undefined, slabs: new ArenaSlabs() });
 * q.pushBack(low, 0); q.pushBack(high, 1); q.popFront() //=> { req: high, seq: 1 }
 */
export class SmallQueue<R> implements BackQueue<R> {
  /** The arena is `buf[base, end)`: a block of a slab, or a buffer of its own past {@link ArenaSlabs.MAX_BLOCK}. */
  private buf: Buffer = NO_ARENA;
  private base = 0;
  private end = 0;
  /** The slab block of the arena, or -1. */
  private block = -1;
  private head = 0;
  private tail = 0;
  size = 0;
  /** The level (0-based) of every entry while they are all of one. */
  private onlyLevel = 0;
  /** Each level's entries and the selector's credits, made when a second level arrives and dropped when the queue empties. */
  private counts: number[] | undefined;
  private credit: number[] | undefined;
  /** The level the next take uses, until a take or a level joining changes it (the frontier asks for the next arrival number after every change). */
  private chosen = -1;

  constructor(
    private readonly host: string,
    private readonly kind: SmallQueueKind<R>,
  ) {}

  pushBack(req: R, seq: number): void {
    const level = this.levelOf(req);
    const need = FRAME + this.kind.codec.maxSize(req);
    if (this.tail + need > this.end) this.regrow(need);
    const start = this.tail;
    const end = this.kind.codec.encode(req, this.buf, start + 9);
    this.frame(start, end, seq, level);
    this.tail = end + 4;
    this.added(level);
  }

  pushFront(req: R, seq: number): void {
    const level = this.levelOf(req);
    const need = FRAME + this.kind.codec.maxSize(req);
    if (this.head - this.base < need) this.regrow(need);
    // Encode where it may end up short of `head`, then slide it up against `head`.
    const start = this.head - need;
    const end = this.kind.codec.encode(req, this.buf, start + 9);
    const at = this.head - (end + 4 - start);
    this.buf.copy(this.buf, at + 9, start + 9, end);
    this.frame(at, this.head - 4, seq, level);
    this.head = at;
    this.added(level);
  }

  popFront(): Entry<R> | undefined {
    return this.size === 0 ? undefined : this.take(this.first(this.selected()));
  }

  popBack(): Entry<R> | undefined {
    return this.size === 0 ? undefined : this.take(this.last(this.selected()));
  }

  frontSeq(): number {
    return this.buf.readUInt32LE(this.first(this.selected()) + 4);
  }

  backSeq(): number {
    return this.buf.readUInt32LE(this.last(this.selected()) + 4);
  }

  *requests(): IterableIterator<R> {
    for (let at = this.head; at < this.tail; at += this.buf.readUInt32LE(at)) yield this.read(at).req;
  }

  /** Bytes of the queued entries, frames included. */
  get bytes(): number {
    return this.tail - this.head;
  }

  /**
   * The same requests in queues of `make`'s, one a level (a {@link FrontQueues} over them with the
   * selector's credits when there are two levels or more), to be taken in the order this queue
   * would have given them; `level` is the 0-based level of a lone queue. This queue is left empty.
   */
  grown(make: (name: string) => BackQueue<R>): { readonly queue: BackQueue<R>; readonly level: number } {
    const { levels, levelOf } = this.kind;
    const queues = new Array<BackQueue<R> | undefined>(levels).fill(undefined);
    for (let at = this.head; at < this.tail; at += this.buf.readUInt32LE(at)) {
      const { req, seq } = this.read(at);
      (queues[this.buf[at + 8]!] ??= make(this.host)).pushBack(req, seq);
    }
    const grown = this.counts === undefined
      ? { queue: queues[this.onlyLevel]!, level: this.onlyLevel }
      : { queue: FrontQueues.resumed(levels, levelOf!, make, this.host, queues, this.credit!), level: 0 };
    this.emptied();
    return grown;
  }

  private levelOf(req: R): number {
    return this.kind.levelOf === undefined ? 0 : FrontQueues.levelIndex(this.kind.levels, this.kind.levelOf(req));
  }

  private added(level: number): void {
    if (this.size === 0) this.onlyLevel = level;
    else if (this.counts === undefined && level !== this.onlyLevel) {
      this.counts = new Array<number>(this.kind.levels).fill(0);
      this.credit = new Array<number>(this.kind.levels).fill(0);
      this.counts[this.onlyLevel] = this.size;
    }
    if (this.counts !== undefined && this.counts[level]!++ === 0) this.chosen = -1; // a level joins the round
    this.size++;
  }

  private selected(): number {
    if (this.counts === undefined) return this.onlyLevel;
    if (this.chosen < 0) this.chosen = selectLevel(this.counts, this.credit!);
    return this.chosen;
  }

  /** Where the first entry of `level` starts. */
  private first(level: number): number {
    let at = this.head;
    while (this.buf[at + 8] !== level) at += this.buf.readUInt32LE(at);
    return at;
  }

  /** Where the last entry of `level` starts. */
  private last(level: number): number {
    let at = this.tail - this.buf.readUInt32LE(this.tail - 4);
    while (this.buf[at + 8] !== level) at -= this.buf.readUInt32LE(at - 4);
    return at;
  }

  /** Takes the entry at `at` (of the selected level) and closes its gap from the nearer end. */
  private take(at: number): Entry<R> {
    const length = this.buf.readUInt32LE(at);
    const entry = this.read(at);
    if (this.counts !== undefined) {
      takeFrom(this.counts, this.credit!, this.buf[at + 8]!);
      this.chosen = -1;
    }
    if (at - this.head <= this.tail - (at + length)) {
      this.buf.copy(this.buf, this.head + length, this.head, at);
      this.head += length;
    } else {
      this.buf.copy(this.buf, at, at + length, this.tail);
      this.tail -= length;
    }
    if (--this.size === 0) this.emptied();
    return entry;
  }

  private frame(start: number, payloadEnd: number, seq: number, level: number): void {
    const length = payloadEnd + 4 - start;
    this.buf.writeUInt32LE(length, start);
    this.buf.writeUInt32LE(seq, start + 4);
    this.buf[start + 8] = level;
    this.buf.writeUInt32LE(length, payloadEnd);
  }

  private read(at: number): Entry<R> {
    return { seq: this.buf.readUInt32LE(at + 4), req: this.kind.codec.decode(this.buf, at + 9, at + this.buf.readUInt32LE(at) - 4, this.host) };
  }

  /** Moves the live bytes to the middle of an arena with room for `need` more on either side. */
  private regrow(need: number): void {
    const live = this.tail - this.head;
    // A first arena fits the entry and one more at either end: most hosts of a broad crawl hold one to three URLs.
    if (live > 0 && live + 2 * need <= this.end - this.base) {
      const head = this.base + ((this.end - this.base - live) >> 1);
      this.buf.copy(this.buf, head, this.head, this.tail);
      this.head = head;
      this.tail = head + live;
      return;
    }
    const wanted = live === 0 ? 3 * need : Math.ceil((live + 2 * need) * 1.5);
    const slabs = this.kind.slabs;
    const block = wanted > ArenaSlabs.MAX_BLOCK ? -1 : slabs.alloc(wanted);
    const size = block < 0 ? wanted : ArenaSlabs.size(wanted);
    const buf = block < 0 ? Buffer.allocUnsafeSlow(size) : slabs.slab(block);
    const base = block < 0 ? 0 : slabs.offset(block);
    const head = base + ((size - live) >> 1);
    this.buf.copy(buf, head, this.head, this.tail);
    this.arena(buf, base, size, block);
    this.head = head;
    this.tail = head + live;
  }

  /** An emptied queue lets go of its arena and its levels' counts (the credits of empty levels are all 0). */
  private emptied(): void {
    this.arena(NO_ARENA, 0, 0, -1);
    this.head = this.tail = 0;
    this.size = 0;
    this.counts = this.credit = undefined;
    this.chosen = -1;
  }

  /** Takes `buf[base, base + size)` as the arena (its bytes already copied), giving the old one back. */
  private arena(buf: Buffer, base: number, size: number, block: number): void {
    if (this.kind.store !== undefined) this.kind.store.held += size - (this.end - this.base);
    if (this.block >= 0) this.kind.slabs.free(this.block, this.end - this.base);
    this.buf = buf;
    this.base = base;
    this.end = base + size;
    this.block = block;
  }
}

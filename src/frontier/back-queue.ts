import { Deque } from './deque.js';

/** A request in a back queue, with its arrival number (the order BFS and DFS compare). */
export interface Entry<R> {
  readonly req: R;
  readonly seq: number;
}

/** One host's pending requests: a double-ended queue of entries. */
export interface BackQueue<R> {
  readonly size: number;
  pushBack(req: R, seq: number): void;
  pushFront(req: R, seq: number): void;
  popFront(): Entry<R> | undefined;
  popBack(): Entry<R> | undefined;
  frontSeq(): number;
  backSeq(): number;
  requests(): IterableIterator<R>;
}

/** Turns requests into bytes and back, so a back queue can hold them packed (see {@link PackedQueue}). */
export interface RequestCodec<R> {
  /** An upper bound of the bytes `encode` writes for `req`. */
  maxSize(req: R): number;
  /** Writes `req` at `at`; returns where it ended. */
  encode(req: R, buf: Buffer, at: number): number;
  /** Reads a request back from `buf[start, end)`; `host` is the queue's. */
  decode(buf: Buffer, start: number, end: number, host: string): R;
}

/** Entries as objects in a ring buffer: for requests of any shape. */
export class ObjectQueue<R> implements BackQueue<R> {
  private readonly deque = new Deque<Entry<R>>();
  get size(): number {
    return this.deque.size;
  }
  pushBack(req: R, seq: number): void {
    this.deque.pushBack({ req, seq });
  }
  pushFront(req: R, seq: number): void {
    this.deque.pushFront({ req, seq });
  }
  popFront(): Entry<R> | undefined {
    return this.deque.popFront();
  }
  popBack(): Entry<R> | undefined {
    return this.deque.popBack();
  }
  frontSeq(): number {
    return this.deque.peekFront()!.seq;
  }
  backSeq(): number {
    return this.deque.peekBack()!.seq;
  }
  *requests(): IterableIterator<R> {
    for (const entry of this.deque) yield entry.req;
  }
}

/** Consecutive entries of a {@link PackedQueue} as its framed bytes, with their count and first and last arrival numbers. */
export interface FramedRun {
  readonly bytes: Buffer;
  readonly count: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
}

/** Bytes around each record: its length before and after (to walk both ways) and its arrival number. */
const FRAME = 12;
const MIN_ARENA = 256;
/**
 * The arena of a queue that holds nothing: a broad crawl keeps tens of thousands of hosts known
 * with nothing queued (a robots.txt being fetched, a host between its pages), and a buffer of its
 * own costs some 500 bytes with its ArrayBuffer and backing store even when empty.
 */
const NO_ARENA = Buffer.alloc(0);

/**
 * Entries as bytes in one growable arena per host: `[length][seq][request][length]`, live between
 * `head` and `tail` with room kept on both sides, so both ends push and pop in O(1). A pending URL
 * then costs its bytes and a frame (about 100 to 150 bytes) instead of several objects and strings
 * (about 300): the frontier's memory stays near its content as a crawl grows to millions of URLs.
 */
export class PackedQueue<R> implements BackQueue<R> {
  private buf = NO_ARENA;
  private head = 0;
  private tail = 0;
  size = 0;

  constructor(
    private readonly host: string,
    private readonly codec: RequestCodec<R>,
  ) {}

  pushBack(req: R, seq: number): void {
    const need = FRAME + this.codec.maxSize(req);
    if (this.tail + need > this.buf.length) this.regrow(need);
    const start = this.tail;
    const end = this.codec.encode(req, this.buf, start + 8);
    this.frame(start, end, seq);
    this.tail = end + 4;
    this.size++;
  }

  pushFront(req: R, seq: number): void {
    const need = FRAME + this.codec.maxSize(req);
    if (this.head < need) this.regrow(need);
    // Encode where it may end up short of `head`, then slide it up against `head`.
    const start = this.head - need;
    const end = this.codec.encode(req, this.buf, start + 8);
    const at = this.head - (end + 4 - start);
    this.buf.copy(this.buf, at + 8, start + 8, end);
    this.frame(at, this.head - 4, seq);
    this.head = at;
    this.size++;
  }

  popFront(): Entry<R> | undefined {
    if (this.size === 0) return undefined;
    const length = this.buf.readUInt32LE(this.head);
    const entry = this.read(this.head, this.head + length);
    this.head += length;
    this.shrunk();
    return entry;
  }

  popBack(): Entry<R> | undefined {
    if (this.size === 0) return undefined;
    const length = this.buf.readUInt32LE(this.tail - 4);
    const entry = this.read(this.tail - length, this.tail);
    this.tail -= length;
    this.shrunk();
    return entry;
  }

  frontSeq(): number {
    return this.buf.readUInt32LE(this.head + 4);
  }

  backSeq(): number {
    return this.buf.readUInt32LE(this.tail - this.buf.readUInt32LE(this.tail - 4) + 4);
  }

  *requests(): IterableIterator<R> {
    for (let at = this.head; at < this.tail; at += this.buf.readUInt32LE(at)) yield this.read(at, at + this.buf.readUInt32LE(at)).req;
  }

  /** Bytes of the queued entries, frames included. */
  get bytes(): number {
    return this.tail - this.head;
  }

  /** Bytes the queue holds in memory for its entries: its arena, once it holds any (an empty one is a host's fixed cost). */
  get footprint(): number {
    return this.size > 0 ? this.buf.length : 0;
  }

  /**
   * The oldest entries, as framed bytes, while at least `keep` bytes of entries stay behind them and
   * the run stays within `max` bytes (one entry at least): a view into the arena, valid until the
   * queue changes. Nothing is removed ({@link dropFront} does, once the bytes are safe elsewhere).
   */
  frontRun(keep: number, max: number): FramedRun | undefined {
    let end = this.head;
    let count = 0;
    let lastSeq = 0;
    while (end < this.tail) {
      const length = this.buf.readUInt32LE(end);
      if (this.tail - (end + length) < keep || (count > 0 && end + length - this.head > max)) break;
      lastSeq = this.buf.readUInt32LE(end + 4);
      end += length;
      count++;
    }
    if (count === 0) return undefined;
    return { bytes: this.buf.subarray(this.head, end), count, firstSeq: this.frontSeq(), lastSeq };
  }

  /** Removes the oldest `count` entries, `bytes` long (a {@link frontRun} now kept elsewhere); a mostly empty arena shrinks. */
  dropFront(bytes: number, count: number): void {
    this.head += bytes;
    this.size -= count;
    const live = this.tail - this.head;
    if (this.size === 0) return this.emptied();
    if (this.buf.length <= 4 * MIN_ARENA || live * 4 > this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(MIN_ARENA, live * 2));
    const head = (next.length - live) >> 1;
    this.buf.copy(next, head, this.head, this.tail);
    this.buf = next;
    this.head = head;
    this.tail = head + live;
  }

  /** Appends entries given as framed bytes ({@link frontRun}'s), keeping their arrival numbers. */
  pushBackFramed(bytes: Buffer, count: number): void {
    this.pushBackFramedBy(bytes.length, count, (buf, at) => bytes.copy(buf, at));
  }

  /** Appends `count` framed entries, `length` bytes, that `fill` writes into the arena at `at` (read from a file straight into place). */
  pushBackFramedBy(length: number, count: number, fill: (buf: Buffer, at: number) => void): void {
    // Into an empty queue (a refill): an arena of about its size, not regrow's room for as much again on both sides.
    if (this.size === 0) {
      const fits = length + MIN_ARENA;
      if (this.buf.length < fits || this.buf.length > 2 * fits) this.buf = Buffer.allocUnsafeSlow(fits);
      this.head = this.tail = MIN_ARENA >> 1;
    } else if (this.tail + length > this.buf.length) this.regrow(length);
    fill(this.buf, this.tail);
    this.tail += length;
    this.size += count;
  }

  private frame(start: number, payloadEnd: number, seq: number): void {
    const length = payloadEnd + 4 - start;
    this.buf.writeUInt32LE(length, start);
    this.buf.writeUInt32LE(seq, start + 4);
    this.buf.writeUInt32LE(length, payloadEnd);
  }

  private read(start: number, end: number): Entry<R> {
    return { seq: this.buf.readUInt32LE(start + 4), req: this.codec.decode(this.buf, start + 8, end - 4, this.host) };
  }

  /** Moves the live bytes to the middle of an arena with room for `need` more on either side. */
  private regrow(need: number): void {
    const live = this.tail - this.head;
    // A first arena fits the entry and one more at either end: most hosts of a broad crawl hold one to three URLs a level.
    const size = live === 0 ? 3 * need : Math.max(MIN_ARENA, Math.ceil((live + 2 * need) * 1.5));
    const next = size <= this.buf.length && live + 2 * need <= this.buf.length ? this.buf : Buffer.allocUnsafeSlow(size);
    const head = (next.length - live) >> 1;
    this.buf.copy(next, head, this.head, this.tail);
    this.buf = next;
    this.head = head;
    this.tail = head + live;
  }

  /** An emptied queue lets go of its arena. */
  private shrunk(): void {
    if (--this.size === 0) this.emptied();
  }

  private emptied(): void {
    this.buf = NO_ARENA;
    this.head = this.tail = 0;
  }
}

import type { RequestEnd } from '../model/request-end.js';
import { ArenaSlabs } from './arena-slabs.js';
import { ObjectQueue, PackedQueue, type BackQueue, type Entry, type RequestCodec } from './back-queue.js';
import { FrontQueues } from './front-queues.js';
import { IndexedHeap, type HeapSlot } from './indexed-heap.js';
import type { SegmentStore } from './segment-store.js';
import { SmallQueue, type SmallQueueKind } from './small-queue.js';
import { SpillingQueue } from './spilling-queue.js';

/** How long a host must rest after a request ends: politeness decides, the frontier enforces. */
export interface DelayPolicy {
  /** Milliseconds the host must rest after a request ends. */
  delayMs(host: string): number;
}

/** How {@link hostFrontier} keeps its queues: order, caps, politeness, packing and priority levels. */
export interface FrontierOptions<R = unknown> {
  /** FIFO back queues for breadth-first, LIFO for depth-first. */
  readonly order: 'bfs' | 'dfs';
  /** Hard cap on pending URLs; `push` refuses beyond it. 0 = no cap. */
  readonly maxSize?: number;
  /** Requests in flight to one host at once. Default 1. */
  readonly maxPerHost?: number;
  readonly politeness: DelayPolicy;
  /** Asked of each request about to be pulled: true discards it (an older copy of one queued again). */
  readonly skip?: (req: R) => boolean;
  /** Keeps pending requests packed as bytes (a fraction of their size as objects). */
  readonly codec?: RequestCodec<R>;
  /** With a codec: the files the queues spill to once the bytes they hold pass the store's budget. */
  readonly spill?: SegmentStore;
  /** Priority levels (front queues) inside each host's queue, taken by {@link FrontQueues}' selector. Default 1. */
  readonly levels?: number;
  /** A request's level, 1 (lowest) to `levels`; needed when `levels` > 1. */
  readonly levelOf?: (req: R) => number;
}

/** The frontier's contract (Scrapy's scheduler, crawlee's request queue): never blocks, never waits. */
export interface Frontier<R extends { readonly host: string }> {
  /** Queues a request; false when refused by the size cap. */
  push(req: R): boolean;
  /** Queues the links of one page so that they are taken in document order under both policies. */
  pushAll(reqs: readonly R[]): number;
  /** A request whose host may be contacted now, or undefined when none is ready. */
  pull(now: number): R | undefined;
  /**
   * The host of `req` is free again, and may be contacted after its politeness delay. A request's
   * first release frees its host (a unit may release it as soon as the fetch ends, before its end is
   * known): true; later ones do not: false. The crawl loop's last release tells how the request
   * ended (`end`): an end `again` puts `end.next` back at the head of its host's queue, in its old
   * place, still pending.
   */
  release(req: R, now: number, end?: RequestEnd<R>): boolean;
  /** The earliest time `pull` can succeed, or undefined when nothing is waiting for time. */
  nextReadyAt(): number | undefined;
  /** Pending requests, excluding those in flight. */
  readonly size: number;
  /** Requests pulled and not yet released. */
  readonly inFlight: number;
  /** Hosts with requests pending or in flight, or still resting after one. */
  readonly hosts: number;
  /** Pending requests, in no particular order: for saving the crawl state. */
  pending(): IterableIterator<R>;
  /**
   * True once this frontier will give no more requests though some are pending: a limit shared with
   * other workers (`max-page-number`) is reached. The crawl loop then completes when nothing is in flight.
   */
  readonly exhausted?: boolean;
  /**
   * Takes one of `host`'s slots for a request made beside the frontier (a rendered page's request to
   * another host), as `pull` would for one of its own: 0 once taken, else the milliseconds to wait
   * before asking again. Until it is taken, the host's own requests wait: the next free slot is the
   * borrower's. Give it back with {@link giveBack}. Absent when the frontier lends no slots.
   */
  borrow?(host: string, now: number): number;
  /** A borrowed slot is free again, and `host` may be contacted after its politeness delay. */
  giveBack?(host: string, now: number): void;
  /** The borrower of a slot of `host` that was not taken yet no longer wants it: the host's own requests go on. */
  forgo?(host: string): void;
}

class HostQueue<R> implements HeapSlot {
  heapIndex = -1;
  /**
   * Packed (with a codec): a {@link SmallQueue} of every level while the host holds a few KiB
   * (most hosts, all their life), then a queue a level. A queue a level is a plain back queue while
   * the host's waiting requests are all of one level: {@link FrontQueues} only once a second level
   * arrives, since its object and arrays cost about a byte per pending URL (10,000 hosts, 1M URLs).
   */
  queue: BackQueue<R>;
  /** The level (0-based) of every request in a plain {@link queue}. */
  level = 0;
  /**
   * The arrival number of the request the host would give next, kept as its queue changes: the
   * ready heap compares it a few times for every push and pull, and asking the queue each time
   * (through its levels, out of its packed bytes) cost more than the compare.
   */
  nextSeq = 0;
  inFlight = 0;
  /** Set while a request beside the frontier waits for a slot: the host's own requests wait behind it. */
  borrowing = false;
  /** Times from which each free slot may be used again. */
  readonly free: number[];

  constructor(readonly name: string, slots: number, queue: BackQueue<R>) {
    this.free = new Array<number>(slots).fill(0);
    this.queue = queue;
  }

  /** Reads {@link nextSeq} again after the queue changed. */
  rekey(dfs: boolean): void {
    if (this.queue.size > 0) this.nextSeq = dfs ? this.queue.backSeq() : this.queue.frontSeq();
  }

  readyAt(): number {
    let min = Infinity;
    for (const t of this.free) if (t < min) min = t;
    return min;
  }
}

const SWEEP_EVERY = 1024;

/**
 * A host's {@link SmallQueue} grows into a queue a level past this many bytes (or the spill
 * files' `spillBytes`, if fewer, since only those queues spill): a take there looks through the
 * entries, some 30 of them at most.
 */
const SMALL_QUEUE_BYTES = 2048;

/** How soon a borrower asks again for a slot of a host whose slots are all taken. */
const BORROW_RETRY_MS = 20;

/**
 * The Mercator URL frontier: one back queue per host (holding front queues per priority level when
 * `levels` > 1), a heap of next-allowed times for the hosts that must wait, and a heap of ready
 * hosts ordered by the arrival of the request each would give next so that, with one thread, one
 * level and no delays, the crawl is exactly breadth-first (FIFO) or depth-first (LIFO) across hosts.
 * Priorities act within a host; across hosts the oldest request goes first, so no host starves.
 * A host is in at most one heap, and only while it has queued URLs and a free slot. Idle hosts are
 * forgotten once their politeness delay has passed.
 *
 * @example
 * const f = hostFrontier({ order: 'bfs', politeness: { delayMs: () => 0 } });
 * f.push({ host: 'a', url: 'http://a/' }); f.pull(Date.now()) //=> { host: 'a', url: 'http://a/' }
 */
export function hostFrontier<R extends { readonly host: string }>(opts: FrontierOptions<R>): Frontier<R> {
  return new HostFrontier<R>(opts);
}

class HostFrontier<R extends { readonly host: string }> implements Frontier<R> {
  private readonly hostQueues = new Map<string, HostQueue<R>>();
  private readonly waiting = new IndexedHeap<HostQueue<R>>((a, b) => a.readyAt() - b.readyAt());
  private readonly ready: IndexedHeap<HostQueue<R>>;
  private readonly inFlightSeq = new Map<R, number>();
  private readonly dfs: boolean;
  private readonly maxSize: number;
  private readonly slots: number;
  private seq = 0;
  private pendingCount = 0;
  private releases = 0;
  private readonly makeQueue: (name: string) => BackQueue<R>;
  /** With a codec: what every host's {@link SmallQueue} shares. */
  private readonly small: SmallQueueKind<R> | undefined;
  private readonly smallBytes: number;
  private readonly levels: number;
  /** Set when there is more than one level. */
  private readonly levelOf: ((req: R) => number) | undefined;

  constructor(private readonly opts: FrontierOptions<R>) {
    this.levels = opts.levels ?? 1;
    this.levelOf = this.levels > 1 ? opts.levelOf : undefined;
    this.dfs = opts.order === 'dfs';
    this.maxSize = opts.maxSize ?? 0;
    this.slots = Math.max(1, opts.maxPerHost ?? 1);
    const codec = opts.codec;
    const spill = opts.spill;
    this.makeQueue = codec === undefined
      ? () => new ObjectQueue()
      : spill === undefined ? (name) => new PackedQueue(name, codec) : (name) => new SpillingQueue(name, codec, spill, this.dfs);
    this.small = codec === undefined ? undefined : { codec, levels: this.levels, levelOf: this.levelOf, store: spill, slabs: new ArenaSlabs() };
    this.smallBytes = Math.min(SMALL_QUEUE_BYTES, spill?.spillBytes ?? Infinity);
    // Ready hosts are ordered by the arrival of the URL each would give next: oldest first, or newest for DFS.
    this.ready = new IndexedHeap<HostQueue<R>>(this.dfs ? (a, b) => b.nextSeq - a.nextSeq : (a, b) => a.nextSeq - b.nextSeq);
  }

  get size(): number {
    return this.pendingCount;
  }

  get hosts(): number {
    return this.hostQueues.size;
  }

  get inFlight(): number {
    return this.inFlightSeq.size;
  }

  push(req: R): boolean {
    if (this.maxSize > 0 && this.pendingCount >= this.maxSize) return false;
    this.enqueue(req, this.seq++, false);
    return true;
  }

  pushAll(reqs: readonly R[]): number {
    let accepted = 0;
    // A stack pops the last pushed first, so depth-first pushes a page's links in reverse to take them in document order.
    if (this.dfs) for (let i = reqs.length - 1; i >= 0; i--) accepted += this.push(reqs[i]!) ? 1 : 0;
    else for (const req of reqs) accepted += this.push(req) ? 1 : 0;
    return accepted;
  }

  pull(now: number): R | undefined {
    for (let top = this.waiting.peek(); top !== undefined && top.readyAt() <= now; top = this.waiting.peek()) {
      this.waiting.pop();
      this.ready.push(top);
    }
    let host: HostQueue<R> | undefined;
    let entry: Entry<R>;
    do {
      host = this.ready.pop();
      if (host === undefined) return undefined;
      entry = (this.dfs ? host.queue.popBack() : host.queue.popFront())!;
      host.rekey(this.dfs);
      this.pendingCount--;
      if (!this.opts.skip?.(entry.req)) break;
      if (host.queue.size > 0) this.ready.push(host);
      host = undefined;
    } while (host === undefined);
    this.takeSlot(host, now);
    host.inFlight++;
    this.inFlightSeq.set(entry.req, entry.seq);
    this.place(host);
    return entry.req;
  }

  release(req: R, now: number, end?: RequestEnd<R>): boolean {
    // In its old place: the seq it was pulled with, while its host is not yet released.
    if (end?.kind === 'again') this.enqueue(end.next, this.inFlightSeq.get(req) ?? this.seq++, true);
    if (!this.inFlightSeq.delete(req)) return false;
    const host = this.hostQueues.get(req.host);
    if (host === undefined) return true;
    host.inFlight--;
    host.free.push(now + Math.max(0, this.opts.politeness.delayMs(req.host)));
    this.place(host);
    if (++this.releases % SWEEP_EVERY === 0) this.sweep(now);
    return true;
  }

  nextReadyAt(): number | undefined {
    if (this.ready.size > 0) return 0;
    return this.waiting.peek()?.readyAt();
  }

  borrow(name: string, now: number): number {
    let host = this.hostQueues.get(name);
    if (host === undefined) {
      host = new HostQueue<R>(name, this.slots, this.newQueue(name));
      this.hostQueues.set(name, host);
    }
    const readyAt = host.readyAt();
    if (readyAt > now) {
      host.borrowing = true;
      this.place(host);
      // No slot free at all: one frees when a request of the host ends, at a time not known yet.
      return readyAt === Infinity ? BORROW_RETRY_MS : readyAt - now;
    }
    host.borrowing = false;
    this.takeSlot(host, now);
    host.inFlight++;
    this.place(host);
    return 0;
  }

  forgo(name: string): void {
    const host = this.hostQueues.get(name);
    if (host === undefined || !host.borrowing) return;
    host.borrowing = false;
    this.place(host);
  }

  giveBack(name: string, now: number): void {
    const host = this.hostQueues.get(name);
    if (host === undefined) return;
    host.inFlight--;
    host.free.push(now + Math.max(0, this.opts.politeness.delayMs(name)));
    this.place(host);
  }

  *pending(): IterableIterator<R> {
    for (const host of this.hostQueues.values()) yield* host.queue.requests();
  }

  private enqueue(req: R, seq: number, atHead: boolean): void {
    let host = this.hostQueues.get(req.host);
    if (host === undefined) {
      host = new HostQueue<R>(req.host, this.slots, this.newQueue(req.host));
      this.hostQueues.set(req.host, host);
    }
    // A host whose queues a level emptied is small again.
    if (this.small !== undefined && host.queue.size === 0 && !(host.queue instanceof SmallQueue)) host.queue = this.newQueue(host.name);
    if (this.levelOf !== undefined && !(host.queue instanceof FrontQueues) && !(host.queue instanceof SmallQueue)) {
      const level = FrontQueues.levelIndex(this.levels, this.levelOf(req));
      if (host.queue.size === 0) host.level = level;
      else if (level !== host.level) host.queue = new FrontQueues(this.levels, this.levelOf, this.makeQueue, host.name, { queue: host.queue, level: host.level });
    }
    // The head, where the next request is taken, is the front for FIFO and the back for LIFO.
    if (atHead && !this.dfs) host.queue.pushFront(req, seq);
    else host.queue.pushBack(req, seq);
    if (host.queue instanceof SmallQueue && host.queue.bytes > this.smallBytes) {
      const grown = host.queue.grown(this.makeQueue);
      host.queue = grown.queue;
      host.level = grown.level;
    }
    host.rekey(this.dfs);
    this.pendingCount++;
    if (this.ready.has(host)) this.ready.update(host);
    else this.place(host);
  }

  /** A host's first queue: a small one when requests are packed. */
  private newQueue(name: string): BackQueue<R> {
    return this.small === undefined ? this.makeQueue(name) : new SmallQueue(name, this.small);
  }

  /** Puts a host in the waiting heap when it has work and a free slot, else in no heap. */
  private place(host: HostQueue<R>): void {
    const wanted = host.queue.size > 0 && host.free.length > 0 && !host.borrowing;
    if (!wanted) {
      this.waiting.remove(host);
      this.ready.remove(host);
    } else if (this.waiting.has(host)) this.waiting.update(host);
    else if (!this.ready.has(host)) this.waiting.push(host);
  }

  private takeSlot(host: HostQueue<R>, now: number): void {
    let best = 0;
    for (let i = 1; i < host.free.length; i++) if (host.free[i]! < host.free[best]!) best = i;
    if (host.free[best]! > now) throw new Error(`frontier: host ${host.name} pulled before it was ready`);
    host.free.splice(best, 1);
  }

  /** Forgets idle hosts whose politeness delay has passed (Scrapy's slot GC), so the map stays bounded. */
  private sweep(now: number): void {
    for (const [name, host] of this.hostQueues)
      if (host.queue.size === 0 && host.inFlight === 0 && host.readyAt() <= now) this.hostQueues.delete(name);
  }
}

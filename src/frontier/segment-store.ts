import { closeSync, ftruncateSync, mkdirSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { FramedRun } from './back-queue.js';

/** Where a spilled run of one queue's entries lies, and what a queue needs of it without reading it. */
export interface Block {
  readonly segment: Segment;
  readonly offset: number;
  readonly bytes: number;
  readonly count: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
}

interface Segment {
  readonly path: string;
  readonly fd: number;
  /** Blocks in it not yet read back. */
  live: number;
}

/** How a {@link SegmentStore} cuts its files and the queues' runs. */
export interface SegmentStoreOptions {
  /** Bytes of one segment file. Default 64 MiB. */
  readonly segmentBytes?: number;
  /** A queue spills once its unspilled tail holds this many bytes (and the budget is spent). Default 8 KiB. */
  readonly spillBytes?: number;
  /** The largest block, so that a refill never brings more than this back into memory at once. Default 64 KiB. */
  readonly maxBlockBytes?: number;
  /** Bytes of entries a queue keeps in memory at the end it is taken from. Default 2 KiB. */
  readonly keepBytes?: number;
}

const DEFAULTS = { segmentBytes: 64 * 1024 * 1024, spillBytes: 8 * 1024, maxBlockBytes: 64 * 1024, keepBytes: 2 * 1024 };

/**
 * The files the frontier's queues spill to: append-only segments of blocks, each block a run of one
 * host queue's entries as that queue held them (framed, so a refill copies bytes and decodes
 * nothing). Blocks of many hosts share a segment; a segment is deleted once every block in it was
 * read back. Reads and writes are synchronous: the frontier answers at once (it never waits), a
 * block is one system call of at most {@link SegmentStoreOptions.maxBlockBytes}, and a segment
 * just written is read back from the page cache. The store also keeps the count of the bytes the
 * queues hold in memory, which decides when they spill.
 *
 * The files are a cache: a resume rebuilds the frontier from the crawl journal, so the folder is
 * emptied when the first block is written (a crawl that never spills never touches the disk) and
 * removed when the crawl ends, and a kill in the middle of a write loses nothing. A failed write (a full disk) leaves its entries in memory, stops all spilling, and
 * settles {@link full}, so that the crawl can stop as it does for a full mirror.
 *
 * @example
 * const store = new SegmentStore('repo/.tarantula/frontier', 32 * 1024 * 1024);
 * hostFrontier({ order: 'bfs', politeness, codec: crawlRequestCodec, spill: store });
 */
export class SegmentStore {
  /** Bytes the queues hold in memory (the arenas of those that hold entries). */
  held = 0;
  /** Entries in blocks not yet read back. */
  spilled = 0;
  /** Bytes of blocks not yet read back. */
  spilledBytes = 0;
  /** The first failed write: nothing spills after it. */
  failure: Error | undefined;
  /** Settles with the first failed write. */
  readonly full: Promise<Error>;
  readonly spillBytes: number;
  readonly maxBlockBytes: number;
  readonly keepBytes: number;
  private readonly segmentBytes: number;
  private readonly segments = new Set<Segment>();
  private current: Segment | undefined;
  private offset = 0;
  private made = 0;
  private settle: (err: Error) => void = () => undefined;

  constructor(readonly dir: string, readonly budgetBytes: number, opts: SegmentStoreOptions = {}) {
    const o = { ...DEFAULTS, ...opts };
    this.segmentBytes = o.segmentBytes;
    this.spillBytes = o.spillBytes;
    this.maxBlockBytes = o.maxBlockBytes;
    this.keepBytes = o.keepBytes;
    this.full = new Promise((resolve) => (this.settle = resolve));
  }

  /** Whether queues should spill: the budget is spent, and the disk has not failed. */
  get over(): boolean {
    return this.held > this.budgetBytes && this.failure === undefined;
  }

  /** Writes a run to the current segment; undefined when the write failed (the run stays where it was). */
  write(run: FramedRun): Block | undefined {
    if (this.failure !== undefined) return undefined;
    const length = run.bytes.length;
    try {
      if (this.current === undefined || this.offset + length > this.segmentBytes) this.nextSegment(length);
      const segment = this.current!;
      for (let done = 0; done < length; ) done += writeSync(segment.fd, run.bytes, done, length - done, this.offset + done);
      const block: Block = { segment, offset: this.offset, bytes: length, count: run.count, firstSeq: run.firstSeq, lastSeq: run.lastSeq };
      this.offset += length;
      segment.live++;
      this.spilled += run.count;
      this.spilledBytes += length;
      return block;
    } catch (err) {
      this.failure = new Error(`the crawl state ${this.dir} can take no more: ${(err as Error).message}`);
      this.settle(this.failure);
      return undefined;
    }
  }

  /** Reads a block back into `buf` at `at` and lets go of it: its segment goes once none of its blocks is left. */
  take(block: Block, buf: Buffer, at: number): void {
    this.read(block, buf, at);
    this.spilled -= block.count;
    this.spilledBytes -= block.bytes;
    if (--block.segment.live === 0 && block.segment !== this.current) this.drop(block.segment);
  }

  /** Reads a block into `buf` at `at` without letting go of it (to list what is pending). */
  read(block: Block, buf: Buffer, at: number): void {
    for (let done = 0; done < block.bytes; ) done += readSync(block.segment.fd, buf, at + done, block.bytes - done, block.offset + done);
  }

  /** Closes and removes every segment, and the folder. */
  close(): void {
    for (const segment of this.segments) closeSync(segment.fd);
    this.segments.clear();
    this.current = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private nextSegment(need: number): void {
    const last = this.current;
    if (this.made === 0) {
      // Left by an interrupted run: the journal, not these, says what is pending.
      rmSync(this.dir, { recursive: true, force: true });
      mkdirSync(this.dir, { recursive: true });
    }
    const path = join(this.dir, `segment-${String(++this.made).padStart(6, '0')}.bin`);
    const fd = openSync(path, 'w+');
    const segment: Segment = { path, fd, live: 0 };
    this.segments.add(segment);
    this.current = segment;
    this.offset = 0;
    if (last !== undefined && last.live === 0) this.drop(last);
    // Its whole size at once (a sparse file, no blocks yet): a file-size limit that cannot hold a
    // segment shows when one is made, not halfway through its blocks.
    ftruncateSync(fd, Math.max(this.segmentBytes, need));
  }

  private drop(segment: Segment): void {
    closeSync(segment.fd);
    unlinkSync(segment.path);
    this.segments.delete(segment);
  }
}

import { closeSync, mkdirSync, openSync, read, readdirSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { endianness } from 'node:os';
import { join } from 'node:path';

/**
 * Where a fingerprint's two words sit in a 64-bit slot of native byte order: its high word first in
 * the number, so that the slots sorted as BigUint64s are sorted by (hi, lo).
 */
export const HI = endianness() === 'LE' ? 1 : 0;
export const LO = 1 - HI;

/** Records per block: 4 KiB of fingerprints (8 of content records), one read for each run a "maybe" looks in. */
const BLOCK = 512;
/** Records per read and per write of a merge: 1 MiB of fingerprints. */
const CHUNK = 1 << 17;
/** Bits set per key in the filter: two stay useful when bits per key run low, as past its size. */
const PROBES = 2;

/** One sorted run on disk, open for reading, with the first key of each block in memory. */
interface Run {
  readonly path: string;
  readonly fd: number;
  readonly count: number;
  /** First key of each block, as (hi, lo) pairs at [2b + HI], [2b + LO]. */
  readonly firsts: Uint32Array;
}

/**
 * The part of a seen-set that spilled: sorted runs of 64-bit keys (a URL's fingerprint, or the first
 * 64 bits of a content MD5 with where its URL is) in files, each run with the first key of every
 * 4 KiB block in memory, behind one Bloom filter of a fixed size. A look-up the filter says no to
 * costs nothing more; a "maybe" reads one block of each run (from the page cache, mostly) and answers
 * exactly. A new run is written at once (`write`); two runs are merged in the background when the
 * newer is more than half the older (a binary counter: about log2 of the spills on disk, each key
 * rewritten that many times). The runs are a cache of what the journal holds: a new process empties
 * the folder an earlier one left (`dir` is its own) at its first spill, and rebuilds them from the
 * journal, so a kill during a write or a merge costs nothing but the rebuild.
 *
 * A write or a merge that fails (a full disk) leaves the runs as they were and is reported once by
 * {@link failed}; nothing more is written after it.
 */
export class SeenRuns {
  private runs: Run[] = [];
  private readonly filter: Int32Array;
  private readonly filterMask: number;
  private readonly block: Uint32Array;
  private readonly blockBytes: Uint8Array;
  /** The records found in the runs lately, `width` words each, by a hash of the key; `filled` says which entries hold one. */
  private readonly cache: Uint32Array;
  private readonly filled: Uint8Array;
  private named = 0;
  private merging: Promise<void> | undefined;
  private made = false;
  private closing = false;
  private failure: Error | undefined;
  private onFailure: (err: Error) => void = () => undefined;
  /** Keys on disk (the runs never share one: the set writes only keys they lack). */
  count = 0;
  /** Resolves with the first write or merge that failed. */
  readonly failed = new Promise<Error>((resolve) => (this.onFailure = resolve));
  /** The value of the record the last {@link has} found (its words after the key's two), when `width` is 4. */
  readonly value = new Uint32Array(2);

  /**
   * `filterBytes`: the filter's size, rounded down to a power of two (at least 8 bytes). `width`: words
   * a record, its key's two (as the slots of the seen-set hold them) and, with 4, a 64-bit value.
   * `cacheRecords`: how many records found in the runs are kept in memory (a power of two, or 0),
   * so that a key looked up again and again (a site's home page, linked from every page) costs no
   * read after the first.
   */
  constructor(
    private readonly dir: string,
    filterBytes: number,
    private readonly width: 2 | 4 = 2,
    cacheRecords = 0,
  ) {
    this.block = new Uint32Array(width * BLOCK);
    this.blockBytes = new Uint8Array(this.block.buffer);
    this.cache = new Uint32Array(width * cacheRecords);
    this.filled = new Uint8Array(cacheRecords);
    let bits = 64;
    while (bits * 2 <= filterBytes * 8) bits *= 2;
    this.filter = new Int32Array(bits / 32);
    this.filterMask = bits - 1;
  }

  /** Whether a write or a merge failed: the set then keeps in memory whatever it cannot write. */
  get stopped(): boolean {
    return this.failure !== undefined;
  }

  /** Runs on disk now. */
  get runCount(): number {
    return this.runs.length;
  }

  /** Whether the key is in a run (its value then in {@link value}). */
  has(hi: number, lo: number): boolean {
    const f = this.filter, m = this.filterMask;
    for (let i = 0; i < PROBES; i++) {
      const bit = (lo + Math.imul(i, hi | 1)) & m;
      if ((f[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    const c = this.cached(hi, lo);
    if (c >= 0) {
      if (this.width === 4) {
        this.value[0] = this.cache[4 * c + 2]!;
        this.value[1] = this.cache[4 * c + 3]!;
      }
      return true;
    }
    for (let r = this.runs.length - 1; r >= 0; r--) {
      if (!this.inRun(this.runs[r]!, hi, lo)) continue;
      this.keep(hi, lo);
      return true;
    }
    return false;
  }

  /**
   * Makes the folder, or empties what an earlier process left in it, before the first file; throws
   * as a write would. {@link write} calls it; a caller writing files of its own there calls it first.
   */
  prepare(): void {
    if (this.made) return;
    mkdirSync(this.dir, { recursive: true });
    for (const stale of readdirSync(this.dir)) rmSync(join(this.dir, stale), { recursive: true, force: true });
    this.made = true;
  }

  /**
   * Writes `records` (`width` words each, sorted by key: as native 64-bit numbers, the key's words
   * are) as a new run; false if it could not (then {@link failed} says why and the caller keeps them).
   */
  write(records: Uint32Array): boolean {
    if (this.failure !== undefined) return false;
    const path = join(this.dir, `run-${this.named++}`);
    let fd: number | undefined;
    try {
      this.prepare();
      fd = openSync(path, 'w+');
      const bytes = new Uint8Array(records.buffer, records.byteOffset, records.byteLength);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (err) {
      if (fd !== undefined) closeSync(fd);
      removeQuietly(path);
      this.stop(err as Error);
      return false;
    }
    const w = this.width, count = records.length / w;
    const firsts = new Uint32Array(2 * Math.ceil(count / BLOCK));
    for (let b = 0; 2 * b < firsts.length; b++) firsts.set(records.subarray(w * b * BLOCK, w * b * BLOCK + 2), 2 * b);
    for (let i = 0; i < count; i++) this.remember(records[w * i + HI]!, records[w * i + LO]!);
    this.runs.push({ path, fd, count, firsts });
    this.count += count;
    this.mergeIfDue();
    return true;
  }

  /** Waits for a merge under way, then closes the runs and removes their folder. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.merging !== undefined) await this.merging;
    for (const run of this.runs) closeSync(run.fd);
    this.runs = [];
    this.count = 0;
    if (this.made) rmSync(this.dir, { recursive: true, force: true });
  }

  /** The cache entry that holds the key, or -1. */
  private cached(hi: number, lo: number): number {
    if (this.filled.length === 0) return -1;
    const c = (hi ^ Math.imul(lo, 0x9e3779b1)) & (this.filled.length - 1);
    const w = this.width;
    return this.filled[c] === 1 && this.cache[w * c + HI] === hi && this.cache[w * c + LO] === lo ? c : -1;
  }

  /** Caches a record just found in a run (its value, with width 4, in {@link value}), in place of the one that had its entry. */
  private keep(hi: number, lo: number): void {
    if (this.filled.length === 0) return;
    const c = (hi ^ Math.imul(lo, 0x9e3779b1)) & (this.filled.length - 1);
    const w = this.width;
    this.cache[w * c + HI] = hi;
    this.cache[w * c + LO] = lo;
    if (w === 4) this.cache.set(this.value, 4 * c + 2);
    this.filled[c] = 1;
  }

  private remember(hi: number, lo: number): void {
    const f = this.filter, m = this.filterMask;
    for (let i = 0; i < PROBES; i++) {
      const bit = (lo + Math.imul(i, hi | 1)) & m;
      f[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  /** Binary search of the blocks' first keys, then of the one block that may hold it. */
  private inRun(run: Run, hi: number, lo: number): boolean {
    const firsts = run.firsts;
    let a = 0, z = firsts.length / 2 - 1;
    if (compare(firsts[HI]!, firsts[LO]!, hi, lo) > 0) return false;
    while (a < z) {
      const mid = (a + z + 1) >>> 1;
      if (compare(firsts[2 * mid + HI]!, firsts[2 * mid + LO]!, hi, lo) <= 0) a = mid;
      else z = mid - 1;
    }
    const n = Math.min(BLOCK, run.count - a * BLOCK), width = this.width, bytes = 4 * width;
    readFully(run.fd, this.blockBytes, bytes * n, bytes * a * BLOCK);
    const w = this.block;
    let lowest = 0, highest = n - 1;
    while (lowest <= highest) {
      const mid = (lowest + highest) >>> 1;
      const c = compare(w[width * mid + HI]!, w[width * mid + LO]!, hi, lo);
      if (c === 0) {
        if (width === 4) this.value.set(w.subarray(4 * mid + 2, 4 * mid + 4));
        return true;
      }
      if (c < 0) lowest = mid + 1;
      else highest = mid - 1;
    }
    return false;
  }

  /** Merges two neighbouring runs, the newest such pair where the older is less than twice the newer. */
  private mergeIfDue(): void {
    if (this.merging !== undefined || this.failure !== undefined || this.closing) return;
    let r = this.runs.length - 1;
    while (r > 0 && this.runs[r - 1]!.count >= 2 * this.runs[r]!.count) r--;
    if (r === 0) return;
    const older = this.runs[r - 1]!, newer = this.runs[r]!;
    this.merging = this.merge(older, newer).then(
      (merged) => {
        // Runs written meanwhile stay after it: newer ones are the smaller, as the merge rule wants.
        this.runs.splice(this.runs.indexOf(older), 2, merged);
        for (const run of [older, newer]) {
          closeSync(run.fd);
          removeQuietly(run.path);
        }
      },
    ).catch((err: Error) => this.stop(err)).finally(() => {
      this.merging = undefined;
      this.mergeIfDue();
    });
  }

  /** Two runs into one, streamed in chunks through `NAME.merging`, renamed when whole. */
  private async merge(a: Run, b: Run): Promise<Run> {
    const name = join(this.dir, `run-${this.named++}`);
    const out = await open(`${name}.merging`, 'w');
    try {
      const count = a.count + b.count, width = this.width;
      const firsts = new Uint32Array(2 * Math.ceil(count / BLOCK));
      const left = new ChunkReader(a, width), right = new ChunkReader(b, width);
      const chunk = new Uint32Array(width * CHUNK);
      let filled = 0, written = 0;
      await left.refill();
      await right.refill();
      while (written + filled < count) {
        const takeLeft = right.done || (!left.done && compare(left.hi, left.lo, right.hi, right.lo) < 0);
        const from = takeLeft ? left : right;
        from.copyTo(chunk, width * filled);
        if ((written + filled) % BLOCK === 0) {
          const b = (written + filled) / BLOCK;
          firsts[2 * b + HI] = from.hi;
          firsts[2 * b + LO] = from.lo;
        }
        filled++;
        if (from.advance()) await from.refill();
        if (filled === CHUNK) {
          await writeAll(out, new Uint8Array(chunk.buffer, 0, 4 * width * filled));
          written += filled;
          filled = 0;
        }
      }
      await writeAll(out, new Uint8Array(chunk.buffer, 0, 4 * width * filled));
      await out.close();
      renameSync(`${name}.merging`, name);
      return { path: name, fd: openSync(name, 'r'), count, firsts };
    } catch (err) {
      await out.close().catch(() => undefined);
      removeQuietly(`${name}.merging`);
      throw err;
    }
  }

  /** Writes no more, and says why once, through {@link failed}. */
  stop(err: Error): void {
    if (this.failure !== undefined) return;
    this.failure = err;
    this.onFailure(err);
  }
}

/** A run read a chunk at a time, its current record's key in `hi`, `lo`. */
class ChunkReader {
  private readonly words: Uint32Array;
  private at = 0;
  private held = 0;
  private read = 0;
  hi = 0;
  lo = 0;
  done = false;

  constructor(
    private readonly run: Run,
    private readonly width: number,
  ) {
    this.words = new Uint32Array(width * CHUNK);
  }

  /** Copies the current record into `into` at `at`. */
  copyTo(into: Uint32Array, at: number): void {
    // Word by word: a view a record (subarray) would allocate once for each of millions of records.
    const w = this.width, from = w * this.at;
    for (let i = 0; i < w; i++) into[at + i] = this.words[from + i]!;
  }

  /** Reads the next chunk; `done` when the run is over. */
  async refill(): Promise<void> {
    const n = Math.min(CHUNK, this.run.count - this.read);
    if (n === 0) {
      this.done = true;
      return;
    }
    const bytes = new Uint8Array(this.words.buffer, 0, 4 * this.width * n);
    // A positioned read on the run's own descriptor: the look-ups share it, each with its own position.
    for (let got = 0; got < bytes.length; ) {
      const { bytesRead } = await readAt(this.run.fd, bytes, got, bytes.length - got, 4 * this.width * this.read + got);
      if (bytesRead === 0) throw new Error(`${this.run.path}: ended early`);
      got += bytesRead;
    }
    this.read += n;
    this.held = n;
    this.at = 0;
    this.take();
  }

  /** Moves to the next record; true when the chunk is used up and must be refilled. */
  advance(): boolean {
    this.at++;
    if (this.at < this.held) {
      this.take();
      return false;
    }
    return true;
  }

  private take(): void {
    this.hi = this.words[this.width * this.at + HI]!;
    this.lo = this.words[this.width * this.at + LO]!;
  }
}

/** Orders two keys by their high words, then their low ones (as unsigned numbers). */
function compare(hiA: number, loA: number, hiB: number, loB: number): number {
  return hiA !== hiB ? hiA - hiB : loA - loB;
}

function readFully(fd: number, into: Uint8Array, length: number, position: number): void {
  for (let got = 0; got < length; ) {
    const n = readSync(fd, into, got, length - got, position + got);
    if (n === 0) throw new Error('a seen-set run ended early');
    got += n;
  }
}

const readAt = promisify(read);

/** Removes a file that may be gone, or whose folder may be none (the runs are a cache: what is left is removed at the next start). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Left for the next process's first spill, which empties the folder.
  }
}

async function writeAll(out: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length; ) done += (await out.write(bytes, done, bytes.length - done)).bytesWritten;
}

import { popcount32 } from '../parse/simhash.js';
import { MAX_NEAR_DUPLICATE_BITS } from '../model/config.js';
import { UrlArena } from '../url/url-arena.js';

/** Bits of a table's bucket number: 65,536 chains per table. */
const BUCKET_BITS = 16;

/**
 * One generation of a {@link NearDuplicateIndex}: pages by their 64-bit SimHash, answering "is there
 * an earlier page within k bits?" without scanning them all: Manku, Jain and Das Sarma's permuted tables in their simplest
 * form. The 64 bits are cut into k + 1 blocks; two hashes within k bits agree exactly on at least
 * one block (k differing bits cannot touch k + 1 blocks), so each of k + 1 tables chains the pages
 * by one block, and a lookup walks only the k + 1 chains of its own blocks, checking the distance
 * of each page there. Bytes per page: 8 (the hash) + 4 × (k + 1) (a chain link per table) + 4 and
 * the URL's length (a packed ASCII arena), so 28 + URL bytes at k = 3, plus the arrays' growth
 * slack (at most half again); fixed: 256 KiB of chain heads per table (1 MiB at k = 3).
 */
class SimHashTables {
  private readonly blocks: readonly (readonly [start: number, length: number])[];
  private readonly heads: Int32Array[];
  private next: Int32Array[];
  private hashes = new Uint32Array(2048);
  private readonly urls = new UrlArena();

  constructor(readonly bits: number) {
    const count = bits + 1;
    this.blocks = Array.from({ length: count }, (_, i) => {
      const start = Math.floor((64 * i) / count);
      return [start, Math.floor((64 * (i + 1)) / count) - start] as const;
    });
    this.heads = this.blocks.map(() => new Int32Array(1 << BUCKET_BITS).fill(-1));
    this.next = this.blocks.map(() => new Int32Array(1024));
  }

  add(simhash: string, url: string): void {
    const hi = parseInt(simhash.slice(0, 8), 16), lo = parseInt(simhash.slice(8), 16);
    const id = this.urls.add(url);
    if (2 * id + 2 > this.hashes.length) this.grow();
    this.hashes[2 * id] = hi;
    this.hashes[2 * id + 1] = lo;
    for (let t = 0; t < this.blocks.length; t++) {
      const bucket = this.bucket(t, hi, lo);
      this.next[t]![id] = this.heads[t]![bucket]!;
      this.heads[t]![bucket] = id;
    }
  }

  get size(): number {
    return this.urls.size;
  }

  /**
   * The URL of a page within `bits` of `simhash` (other than `self`), or undefined: the first one
   * met, the latest added of its chain. A crawl adds only pages that have no near-duplicate yet, so
   * chains stay short even on a site of near-identical pages.
   */
  find(simhash: string, self?: string): string | undefined {
    const hi = parseInt(simhash.slice(0, 8), 16), lo = parseInt(simhash.slice(8), 16);
    for (let t = 0; t < this.blocks.length; t++) {
      for (let id = this.heads[t]![this.bucket(t, hi, lo)]!; id >= 0; id = this.next[t]![id]!) {
        const d = popcount32(this.hashes[2 * id]! ^ hi) + popcount32(this.hashes[2 * id + 1]! ^ lo);
        if (d <= this.bits && this.urlOf(id) !== self) return this.urlOf(id);
      }
    }
    return undefined;
  }

  private urlOf(id: number): string {
    return this.urls.get(id);
  }

  /** Block `t` of the hash (its first 32 bits when longer), spread over the table's buckets. */
  private bucket(t: number, hi: number, lo: number): number {
    const [start, length] = this.blocks[t]!;
    const take = Math.min(length, 32);
    let value: number;
    if (start >= 32) value = hi >>> (start - 32);
    else if (start === 0) value = lo;
    else value = (lo >>> start) | (hi << (32 - start));
    if (take < 32) value &= (1 << take) - 1;
    return Math.imul(value, 0x9e3779b1) >>> (32 - BUCKET_BITS);
  }

  private grow(): void {
    const capacity = this.hashes.length; // pages × 2
    const hashes = new Uint32Array(capacity * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
    this.next = this.next.map((chain) => {
      const wider = new Int32Array(capacity);
      wider.set(chain);
      return wider;
    });
  }
}

/**
 * The pages of the crawl by their SimHash, for "is there an earlier page within k bits?", kept to
 * the latest `maxPages` at most: two generations of tables, the current one taking pages until it
 * holds half of `maxPages`, when the one before it is dropped and a new one begun (a look-up asks
 * both, newest first). So memory stays bounded whatever the crawl's length, and a page is compared
 * with the last `maxPages / 2` to `maxPages` pages before it: near-duplicates are mostly pages of one
 * site, found close together in a crawl, and the answer is a heuristic anyway, where spilling the
 * k + 1 tables to disk would cost k + 1 random reads a page. A resume adds the same pages in the same
 * order (the journal's), so it keeps the same generations. Without `maxPages`, all are kept.
 *
 * @example
 * const index = new NearDuplicateIndex(3);
 * index.add('0f0f0f0f0f0f0f0f', 'http://a.test/');
 * index.find('0f0f0f0f0f0f0f0e') //=> 'http://a.test/'
 */
export class NearDuplicateIndex {
  private current: SimHashTables;
  private previous: SimHashTables | undefined;
  private dropped = 0;

  constructor(
    readonly bits: number,
    private readonly maxPages = Infinity,
  ) {
    if (!Number.isInteger(bits) || bits < 0 || bits > MAX_NEAR_DUPLICATE_BITS) throw new RangeError(`near-duplicate bits must be 0 to ${MAX_NEAR_DUPLICATE_BITS}, not ${bits}`);
    if (!(maxPages >= 2)) throw new RangeError(`a near-duplicate index keeps 2 pages at least, not ${maxPages}`);
    this.current = new SimHashTables(bits);
  }

  /** Remembers a page's hash (16 hex digits). */
  add(simhash: string, url: string): void {
    if (this.current.size >= this.maxPages / 2) {
      this.dropped += this.previous?.size ?? 0;
      this.previous = this.current;
      this.current = new SimHashTables(this.bits);
    }
    this.current.add(simhash, url);
  }

  /** Pages remembered now. */
  get size(): number {
    return this.current.size + (this.previous?.size ?? 0);
  }

  /** Pages added and then dropped, the oldest first, to keep to `maxPages`. */
  get forgotten(): number {
    return this.dropped;
  }

  /** The URL of a page within `bits` of `simhash` (other than `self`), or undefined: the latest generation first. */
  find(simhash: string, self?: string): string | undefined {
    return this.current.find(simhash, self) ?? this.previous?.find(simhash, self);
  }
}

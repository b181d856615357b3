import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UrlArena } from '../url/url-arena.js';
import { HI, LO, SeenRuns } from './seen-runs.js';

const DIGEST = /^[0-9a-f]{32}$/i;
/** The four words of the digest last looked up ({@link ContentSeen.slotOf}), for `add` to store without parsing it again. */
const KEY = new Uint32Array(4);
/** Bytes a page costs in memory besides its URL's characters: 16 of digest, 4 of arena end, 8 of table at most half full. */
const PAGE_BYTES = 28;

/** Where a {@link ContentSeen} spills, and how much memory it may use. */
export interface ContentSpill {
  /** A folder of its own, made or emptied at the first spill (what an earlier process left is a stale cache) and removed by `close`. */
  readonly dir: string;
  /** Bytes of memory: the table up to about half (its arrays grow by doubling), a quarter for the filter in front of the runs. */
  readonly budgetBytes: number;
}

/**
 * The content MD5s of a crawl's documents, each with the URL that had it first (exact duplicates,
 * SPEC §6), kept for the rest of the crawl. Packed: per page 16 bytes of digest, the URL in a
 * {@link UrlArena} (4 bytes and its length), and 8 of open-addressing table at most
 * half full, about 100 bytes with 60-character URLs against the 160 of a `Map` of strings
 * (`npm run bench:memory`, "indexed pages").
 *
 * Given a {@link ContentSpill}, it keeps to its budget: when the table holds half of it, its pages
 * go to disk, sorted by the digest's first 64 bits, as a run of {@link SeenRuns} whose records carry
 * where the URL is in a file of URLs beside them, and the table starts again empty. A digest the
 * table lacks is then looked up in the runs (a Bloom filter first): a copy of a page met long ago is
 * still a copy, and of the same URL. On disk a digest is its first 64 bits, as a seen-set's URL is
 * its 64-bit fingerprint: two contents taken for one need a collision among billions of pages.
 *
 * @example
 * const seen = new ContentSeen();
 * seen.add('d41d8cd98f00b204e9800998ecf8427e', 'http://a.test/empty') //=> undefined (the first)
 * seen.add('d41d8cd98f00b204e9800998ecf8427e', 'http://a.test/other') //=> 'http://a.test/empty'
 * seen.first('d41d8cd98f00b204e9800998ecf8427e')                       //=> 'http://a.test/empty'
 */
export class ContentSeen {
  /** Four 32-bit words of digest per page, by id. */
  private digests = new Uint32Array(4 * 1024);
  private urls = new UrlArena();
  /** Ids by slot, -1 empty; the slot is the digest's first word (already uniform), probed linearly. */
  private slots = new Int32Array(2048).fill(-1);
  /** Characters of the URLs in the table. */
  private chars = 0;
  private readonly disk: SeenRuns | undefined;
  private readonly budget: number;
  /** The file of the spilled pages' URLs, and its length. */
  private urlFile: number | undefined;
  private urlFileEnd = 0;

  constructor(private readonly spill?: ContentSpill) {
    this.budget = spill?.budgetBytes ?? Infinity;
    this.disk = spill === undefined ? undefined : new SeenRuns(spill.dir, spill.budgetBytes / 4, 4);
  }

  /** Distinct contents remembered. */
  get size(): number {
    return this.urls.size + (this.disk?.count ?? 0);
  }

  /** Pages written to disk so far. */
  get spilled(): number {
    return this.disk?.count ?? 0;
  }

  /** Resolves with the first error that kept it from writing to disk (a full disk): it then holds on in memory, past its budget. */
  get failed(): Promise<Error> {
    return this.disk?.failed ?? new Promise(() => undefined);
  }

  /** The URL that first had content of this MD5 (32 hex digits), or undefined. */
  first(md5: string): string | undefined {
    const id = this.slots[this.slotOf(md5)]!;
    return id >= 0 ? this.urls.get(id) : this.onDisk();
  }

  /**
   * Remembers `url` as the first with content `md5`, unless a URL had it before: that one is kept
   * and returned (one look-up for the crawl's "is this a copy, and of what").
   */
  add(md5: string, url: string): string | undefined {
    let slot = this.slotOf(md5);
    if (this.slots[slot]! >= 0) return this.urls.get(this.slots[slot]!);
    const earlier = this.onDisk();
    if (earlier !== undefined) return earlier;
    if (PAGE_BYTES * (this.urls.size + 1) + this.chars + url.length > this.budget / 2 && this.spillTable()) slot = this.slotOf(md5);
    const id = this.urls.add(url);
    this.chars += url.length;
    if (4 * id === this.digests.length) {
      const digests = new Uint32Array(2 * this.digests.length);
      digests.set(this.digests);
      this.digests = digests;
    }
    this.digests.set(KEY, 4 * id);
    if (2 * this.urls.size > this.slots.length) {
      this.rehash(2 * this.slots.length);
      slot = this.slotOf(md5);
    }
    this.slots[slot] = id;
    return undefined;
  }

  /** Waits for a merge under way and removes the files (they hold nothing a later run needs: a resume rebuilds them from the journal). */
  async close(): Promise<void> {
    if (this.urlFile !== undefined) closeSync(this.urlFile);
    this.urlFile = undefined;
    await this.disk?.close();
  }

  /** The slot that holds this digest, or the empty one where it would go. */
  private slotOf(md5: string): number {
    if (!DIGEST.test(md5)) throw new RangeError(`not an MD5 in hex: ${JSON.stringify(md5)}`);
    for (let w = 0; w < 4; w++) KEY[w] = parseInt(md5.slice(8 * w, 8 * w + 8), 16);
    const mask = this.slots.length - 1;
    for (let slot = KEY[0]! & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id < 0) return slot;
      const d = 4 * id, h = this.digests;
      if (h[d] === KEY[0] && h[d + 1] === KEY[1] && h[d + 2] === KEY[2] && h[d + 3] === KEY[3]) return slot;
    }
  }

  /** The URL the runs hold for the digest in {@link KEY}, read from the file of URLs; undefined if none. */
  private onDisk(): string | undefined {
    if (this.disk === undefined || this.urlFile === undefined || !this.disk.has(KEY[0]!, KEY[1]!)) return undefined;
    const word = this.disk.value[0]!, low = this.disk.value[1]!;
    const length = word & 0xffffff;
    const bytes = Buffer.allocUnsafe(length);
    for (let got = 0; got < length; ) got += readSync(this.urlFile, bytes, got, length - got, (word >>> 24) * 2 ** 32 + low + got);
    return bytes.toString('latin1');
  }

  /**
   * Writes the table's pages to disk (their URLs appended to the file of URLs, their digests' first
   * 64 bits with each URL's place as a run) and empties it; false, the table as it was, when a write
   * failed or failed before.
   */
  private spillTable(): boolean {
    const disk = this.disk;
    if (disk === undefined || disk.stopped) return false;
    const n = this.urls.size, d = this.digests;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => (d[4 * a] !== d[4 * b] ? d[4 * a]! - d[4 * b]! : d[4 * a + 1]! - d[4 * b + 1]!));
    const text = Buffer.allocUnsafe(this.chars);
    const records = new Uint32Array(4 * n);
    let at = 0;
    for (let k = 0; k < n; k++) {
      const id = order[k]!, url = this.urls.get(id), offset = this.urlFileEnd + at;
      at += text.write(url, at, 'latin1');
      records[4 * k + HI] = d[4 * id]!;
      records[4 * k + LO] = d[4 * id + 1]!;
      // The URL's length (below 16 MiB) and the high byte of its offset; then the offset's low 32 bits.
      records[4 * k + 2] = ((Math.floor(offset / 2 ** 32) << 24) | url.length) >>> 0;
      records[4 * k + 3] = offset >>> 0;
    }
    try {
      disk.prepare();
      this.urlFile ??= openSync(join(this.spill!.dir, 'urls'), 'w+');
      for (let done = 0; done < at; ) done += writeSync(this.urlFile, text, done, at - done, this.urlFileEnd + done);
    } catch (err) {
      disk.stop(err as Error);
      return false;
    }
    if (!disk.write(records)) return false;
    this.urlFileEnd += at;
    this.urls = new UrlArena();
    this.chars = 0;
    this.slots.fill(-1);
    return true;
  }

  /** A table twice the size, every page placed again (the digest being stored, no string is parsed). */
  private rehash(length: number): void {
    this.slots = new Int32Array(length).fill(-1);
    const mask = length - 1;
    // The page being added is not in the table yet: `add` places it after.
    for (let id = 0; id < this.urls.size - 1; id++) {
      let slot = this.digests[4 * id]! & mask;
      while (this.slots[slot]! >= 0) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }
}

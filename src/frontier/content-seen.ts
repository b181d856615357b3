import { UrlArena } from '../url/url-arena.js';

const DIGEST = /^[0-9a-f]{32}$/i;
/** The four words of the digest last looked up ({@link ContentSeen.slotOf}), for `add` to store without parsing it again. */
const KEY = new Uint32Array(4);

/**
 * The content MD5s of a crawl's documents, each with the URL that had it first (exact duplicates,
 * SPEC §6), kept for the rest of the crawl. Packed: per page 16 bytes of digest, the URL in a
 * {@link UrlArena} (4 bytes and its length), and 8 of open-addressing table at most
 * half full, about 100 bytes with 60-character URLs against the 160 of a `Map` of strings
 * (`npm run bench:memory`, "indexed pages").
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
  private readonly urls = new UrlArena();
  /** Ids by slot, -1 empty; the slot is the digest's first word (already uniform), probed linearly. */
  private slots = new Int32Array(2048).fill(-1);

  /** Distinct contents remembered. */
  get size(): number {
    return this.urls.size;
  }

  /** The URL that first had content of this MD5 (32 hex digits), or undefined. */
  first(md5: string): string | undefined {
    const id = this.slots[this.slotOf(md5)]!;
    return id < 0 ? undefined : this.urls.get(id);
  }

  /**
   * Remembers `url` as the first with content `md5`, unless a URL had it before: that one is kept
   * and returned (one look-up for the crawl's "is this a copy, and of what").
   */
  add(md5: string, url: string): string | undefined {
    let slot = this.slotOf(md5);
    if (this.slots[slot]! >= 0) return this.urls.get(this.slots[slot]!);
    const id = this.urls.add(url);
    if (4 * id === this.digests.length) {
      const digests = new Uint32Array(2 * this.digests.length);
      digests.set(this.digests);
      this.digests = digests;
    }
    this.digests.set(KEY, 4 * id);
    if (2 * this.size > this.slots.length) {
      this.rehash(2 * this.slots.length);
      slot = this.slotOf(md5);
    }
    this.slots[slot] = id;
    return undefined;
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

  /** A table twice the size, every page placed again (the digest being stored, no string is parsed). */
  private rehash(length: number): void {
    this.slots = new Int32Array(length).fill(-1);
    const mask = length - 1;
    // The page being added is not in the table yet: `add` places it after.
    for (let id = 0; id < this.size - 1; id++) {
      let slot = this.digests[4 * id]! & mask;
      while (this.slots[slot]! >= 0) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }
}

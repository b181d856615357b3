const MAX_LOAD = 0.75;
/** `part` of a slot: 0 empty, else part + 1; TAKEN once the winner was written. */
const EMPTY = 0;
const TAKEN = 0xffff;
/** Parts a table tells apart (part + 1 must stay below TAKEN). */
export const MAX_PARTS = TAKEN - 1;

/**
 * Which part holds the newest record of each URL, for a merge of several repositories: an
 * open-addressing table keyed by the URL's MD5 (the index's own key, all 128 bits: exact), holding the
 * newest fetch time offered and its part. 26 bytes a slot (the MD5, a float64 time, a uint16 part),
 * 1.33 to 2.67 slots a URL (it doubles at 3/4 full): 35–69 bytes per URL, and the old table beside the
 * new one while it doubles.
 *
 * @example
 * const newest = new NewestRecords();
 * newest.offer(md5, Date.parse('2026-12-01T09:00:00Z'), 0);
 * newest.offer(md5, Date.parse('2026-12-02T09:00:00Z'), 1);
 * newest.take(md5, Date.parse('2026-12-01T09:00:00Z'), 0) //=> false
 * newest.take(md5, Date.parse('2026-12-02T09:00:00Z'), 1) //=> true (once)
 */
export class NewestRecords {
  private keys: Uint32Array;
  private times: Float64Array;
  private parts: Uint16Array;
  private mask: number;
  /** URLs in the table. */
  size = 0;

  constructor(initialCapacity = 1 << 16) {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.keys = new Uint32Array(capacity * 4);
    this.times = new Float64Array(capacity);
    this.parts = new Uint16Array(capacity);
    this.mask = capacity - 1;
  }

  /**
   * A record of the URL whose MD5 is `md5` (32 hex digits), fetched at `time` (ms; NaN counts as
   * oldest), is in `part`: it becomes the URL's newest unless one at least as new was offered before.
   */
  offer(md5: string, time: number, part: number): void {
    if (!(part >= 0 && part < MAX_PARTS)) throw new RangeError(`a merge takes at most ${MAX_PARTS} parts`);
    const at = Number.isNaN(time) ? -Infinity : time;
    const slot = this.find(md5);
    if (this.parts[slot] === EMPTY) {
      this.keys.set(WORDS, slot * 4);
      this.parts[slot] = part + 1;
      this.times[slot] = at;
      if (++this.size > this.times.length * MAX_LOAD) this.grow();
    } else if (at > this.times[slot]!) {
      this.parts[slot] = part + 1;
      this.times[slot] = at;
    }
  }

  /** True for the newest record of its URL as offered, once: the record to write. */
  take(md5: string, time: number, part: number): boolean {
    const at = Number.isNaN(time) ? -Infinity : time;
    const slot = this.find(md5);
    if (this.parts[slot] !== part + 1 || this.times[slot] !== at) return false;
    this.parts[slot] = TAKEN;
    return true;
  }

  /** The slot of `md5`, or the empty slot where it goes; leaves its four words in WORDS. */
  private find(md5: string): number {
    for (let i = 0; i < 4; i++) WORDS[i] = parseInt(md5.slice(i * 8, i * 8 + 8), 16) >>> 0;
    for (let slot = WORDS[0]! & this.mask; ; slot = (slot + 1) & this.mask) {
      if (this.parts[slot] === EMPTY) return slot;
      const k = slot * 4;
      if (this.keys[k] === WORDS[0] && this.keys[k + 1] === WORDS[1] && this.keys[k + 2] === WORDS[2] && this.keys[k + 3] === WORDS[3]) return slot;
    }
  }

  private grow(): void {
    const { keys, times, parts } = this;
    const capacity = times.length * 2;
    this.keys = new Uint32Array(capacity * 4);
    this.times = new Float64Array(capacity);
    this.parts = new Uint16Array(capacity);
    this.mask = capacity - 1;
    for (let old = 0; old < parts.length; old++) {
      if (parts[old] === EMPTY) continue;
      let slot = keys[old * 4]! & this.mask;
      while (this.parts[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.keys.set(keys.subarray(old * 4, old * 4 + 4), slot * 4);
      this.times[slot] = times[old]!;
      this.parts[slot] = parts[old]!;
    }
  }
}

/** The four words of the MD5 last looked up: no allocation per record. */
const WORDS = new Uint32Array(4);

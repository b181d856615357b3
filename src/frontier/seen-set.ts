/** The set of URL fingerprints already admitted: what makes a URL a duplicate. */
export interface SeenSet {
  /** Adds a fingerprint; false when it was already there. */
  add(key: string): boolean;
  has(key: string): boolean;
  readonly size: number;
}

const MAX_LOAD = 0.75;

function hexWord(key: string, from: number): number {
  let v = 0;
  for (let i = from; i < from + 8; i++) {
    const c = key.charCodeAt(i);
    v = (v << 4) | (c <= 57 ? c - 48 : (c | 32) - 87);
  }
  return v >>> 0;
}

/**
 * A seen-set of 64-bit fingerprints (the first 16 hex digits of a URL's MD5) in an open-addressing
 * table of two Uint32Arrays: 8 bytes a slot, 10.7 to 21 bytes per URL between resizes, where a
 * `Set<string>` of URLs costs well over 100. A false "seen" needs a 64-bit collision: about one in
 * 10^19 per pair of URLs, so one expected in a crawl of several billion.
 *
 * @example
 * const seen = fingerprintSet();
 * seen.add('9e107d9d372bb6826bd81d3542a419d6') //=> true
 * seen.add('9e107d9d372bb6826bd81d3542a419d6') //=> false
 */
export function fingerprintSet(initialCapacity = 1 << 16): SeenSet {
  return new FingerprintSet(initialCapacity);
}

class FingerprintSet implements SeenSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity: number) {
    let cap = 16;
    while (cap < initialCapacity) cap *= 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  add(key: string): boolean {
    const hi = hexWord(key, 0);
    const lo = hexWord(key, 8) || 1; // 0:0 marks an empty slot
    if (this.find(hi, lo) >= 0) return false;
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) this.grow();
    this.insert(hi, lo);
    this.count++;
    return true;
  }

  has(key: string): boolean {
    return this.find(hexWord(key, 0), hexWord(key, 8) || 1) >= 0;
  }

  private find(hi: number, lo: number): number {
    for (let i = (lo ^ hi) & this.mask; ; i = (i + 1) & this.mask) {
      const l = this.lo[i]!;
      if (l === 0) return -1;
      if (l === lo && this.hi[i] === hi) return i;
    }
  }

  private insert(hi: number, lo: number): void {
    let i = (lo ^ hi) & this.mask;
    while (this.lo[i] !== 0) i = (i + 1) & this.mask;
    this.hi[i] = hi;
    this.lo[i] = lo;
  }

  private grow(): void {
    const oldHi = this.hi;
    const oldLo = this.lo;
    const cap = oldLo.length * 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.mask = cap - 1;
    for (let i = 0; i < oldLo.length; i++) if (oldLo[i] !== 0) this.insert(oldHi[i]!, oldLo[i]!);
  }
}

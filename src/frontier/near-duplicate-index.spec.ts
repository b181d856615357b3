import { describe, expect, it } from 'vitest';
import { hammingDistance } from '../parse/simhash.js';
import { NearDuplicateIndex } from './near-duplicate-index.js';

/** A deterministic stream of 32-bit words (xorshift), so a failure can be replayed. */
function words(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}
const hex = (hi: number, lo: number): string => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
function flip(h: string, bits: readonly number[]): string {
  let hi = parseInt(h.slice(0, 8), 16), lo = parseInt(h.slice(8), 16);
  for (const b of bits) if (b < 32) lo = (lo ^ (1 << b)) >>> 0; else hi = (hi ^ (1 << (b - 32))) >>> 0;
  return hex(hi, lo);
}

describe('NearDuplicateIndex', () => {
  it.each([0, 1, 3, 6])('with k = %i finds a page within k bits exactly when a scan of all pages finds one', (k) => {
    const next = words(0x1234567 + k);
    const index = new NearDuplicateIndex(k);
    const pages: string[] = [];
    for (let i = 0; i < 1500; i++) {
      // Every third page is a copy of an earlier one with up to k + 1 bits flipped, at any positions.
      const base = i % 3 === 2 ? pages[next() % pages.length]! : hex(next(), next());
      const h = i % 3 === 2 ? flip(base, Array.from({ length: next() % (k + 2) }, () => next() % 64)) : base;
      const scan = pages.findIndex((p) => hammingDistance(p, h) <= k);
      const found = index.find(h);
      if (scan < 0) expect(found).toBeUndefined();
      else expect(hammingDistance(pages[Number(found!.slice(14))]!, h)).toBeLessThanOrEqual(k);
      index.add(h, `http://h.test/${i}`);
      pages.push(h);
    }
  });

  it('does not answer a page with itself, and refuses a k it cannot index soundly', () => {
    const index = new NearDuplicateIndex(3);
    index.add('00000000ffffffff', 'http://a.test/');
    expect(index.find('00000000fffffff8', 'http://a.test/')).toBeUndefined();
    expect(index.find('00000000fffffff8', 'http://b.test/')).toBe('http://a.test/');
    expect(() => new NearDuplicateIndex(7)).toThrow('near-duplicate bits must be 0 to 6, not 7');
  });
});

describe('NearDuplicateIndex with maxPages', () => {
  it('finds the pages of the current and the last generation, forgets older ones, and holds maxPages at most', () => {
    const next = words(0xabcdef);
    const index = new NearDuplicateIndex(3, 1000);
    const pages = Array.from({ length: 2600 }, () => hex(next(), next()));
    pages.forEach((h, i) => {
      index.add(h, `http://h.test/${i}`);
      expect(index.size).toBeLessThanOrEqual(1000);
    });
    // Generations of 500: 0–499 and 500–999 dropped, 1000–1499 and 1500–1999 dropped, 2000–2499 the last one, 2500– the current.
    expect(index.forgotten).toBe(2000);
    expect(index.size).toBe(600);
    for (let i = 0; i < pages.length; i++) {
      const found = index.find(flip(pages[i]!, [i % 64, (i * 7) % 64]));
      if (i >= 2000) expect(found).toBe(`http://h.test/${i}`);
      else if (found !== undefined) expect(Number(found.slice(14))).toBeGreaterThanOrEqual(2000); // a chance neighbour among the kept
    }
  });
});

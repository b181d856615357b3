import { describe, expect, it } from 'vitest';
import { fingerprintHi, fingerprintOf, fingerprintSet } from './seen-set.js';
import { inLinkCounts } from './in-link-counts.js';

/** MurmurHash3 (32-bit) over UTF-16 code units, written plainly: the reference the one-pass fingerprint must equal. */
function murmur(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) {
    let k = Math.imul(s.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= s.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

describe('fingerprintSet', () => {
  it('says a URL is new once and seen afterwards, across resizes', () => {
    const seen = fingerprintSet(16);
    const urls = Array.from({ length: 200_000 }, (_, i) => `http://h${i % 97}.test/p/${i}`);
    expect(urls.every((u) => seen.add(u))).toBe(true);
    expect(urls.every((u) => !seen.add(u) && seen.has(u))).toBe(true);
    expect(seen.size).toBe(200_000);
  });

  it('tells apart URLs that differ in one character, or only in order', () => {
    const seen = fingerprintSet();
    for (const u of ['http://a.test/ab', 'http://a.test/ba', 'http://a.test/ab/', 'http://a.test/Ab', 'http://a.test/αβ', 'http://a.test/βα'])
      expect(seen.add(u)).toBe(true);
    expect(seen.has('http://a.test/abc')).toBe(false);
    expect(seen.has('')).toBe(false);
    expect(seen.add('')).toBe(true);
    expect(seen.has('')).toBe(true);
  });
});

describe('fingerprintOf', () => {
  // The Redis frontier keeps these words: a shared crawl's workers and its earlier runs must agree on them.
  it('is the two seeded MurmurHash3 words (the second never 0), whatever the characters', () => {
    const urls = ['', 'h', 'http://a.test/', 'http://www.example.com/docs/section-12/page-123456.html?q=1#x', 'http://ü.test/päth/日本語', 'x'.repeat(3000)];
    for (const url of urls) expect(fingerprintOf(url)).toEqual([murmur(url, 0x9747b28c), murmur(url, 0x5bd1e995) || 1]);
    expect(fingerprintOf('http://a.test/')).toEqual([1756957995, 3088459907]); // as the one-pass-per-seed code before it gave
  });
});

describe('fingerprintHi', () => {
  it('is the first word, and in-link counts that share the last fingerprint leave the seen-set exact', () => {
    for (const url of ['', 'http://a.test/', 'http://ü.test/päth']) expect(fingerprintHi(url)).toBe(murmur(url, 0x9747b28c));
    const seen = fingerprintSet(16);
    const counts = inLinkCounts();
    const urls = Array.from({ length: 5000 }, (_, i) => `http://h${i % 7}.test/p/${i % 2500}`);
    const truth = new Set<string>();
    // counted, then looked up, then another URL counted in between: as admission interleaves them
    for (const [i, url] of urls.entries()) {
      counts.add(url);
      if (i % 3 === 0) counts.add(urls[(i * 7) % urls.length]!);
      expect(seen.add(url)).toBe(!truth.has(url));
      truth.add(url);
      expect(seen.has(urls[(i * 13) % urls.length]!)).toBe(truth.has(urls[(i * 13) % urls.length]!));
    }
    expect(counts.get('http://h0.test/p/0')).toBeGreaterThanOrEqual(2);
  });
});

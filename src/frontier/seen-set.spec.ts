import { describe, expect, it } from 'vitest';
import { fingerprintOf, fingerprintSet, murmur } from './seen-set.js';

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

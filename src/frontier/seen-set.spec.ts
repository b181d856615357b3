import { describe, expect, it } from 'vitest';
import { fingerprintSet } from './seen-set.js';

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

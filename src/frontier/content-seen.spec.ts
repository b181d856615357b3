import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ContentSeen } from './content-seen.js';

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

describe('ContentSeen', () => {
  it('answers the first URL of every content among 100,000, through many growths of its table, and nothing for content never added', () => {
    const seen = new ContentSeen();
    for (let i = 0; i < 100_000; i++) seen.add(md5(`page ${i}`), `http://h${i % 7}.test/p/${i}.html`);
    expect(seen.size).toBe(100_000);
    for (let i = 0; i < 100_000; i += 997) expect(seen.first(md5(`page ${i}`))).toBe(`http://h${i % 7}.test/p/${i}.html`);
    for (let i = 100_000; i < 100_100; i++) expect(seen.first(md5(`page ${i}`))).toBeUndefined();
  });

  it('keeps the first URL when the same content comes again, in either case of hex digits', () => {
    const seen = new ContentSeen();
    const digest = md5('same');
    expect(seen.add(digest, 'http://a.test/1')).toBeUndefined();
    expect(seen.add(digest.toUpperCase(), 'http://a.test/2')).toBe('http://a.test/1');
    expect([seen.first(digest), seen.size]).toEqual(['http://a.test/1', 1]);
  });

  it('tells digests apart that share their first 32 bits, where the table would place them together', () => {
    const seen = new ContentSeen();
    const a = `0000000${'1'.repeat(25)}`, b = `0000000${'2'.repeat(25)}`;
    seen.add(a, 'http://a.test/a');
    seen.add(`00000000${'f'.repeat(24)}`, 'http://a.test/c');
    seen.add(b, 'http://a.test/b');
    expect([seen.first(a), seen.first(b), seen.first(`0000000${'3'.repeat(25)}`)]).toEqual(['http://a.test/a', 'http://a.test/b', undefined]);
  });

  it('refuses what is not an MD5 in hex, naming it', () => {
    expect(() => new ContentSeen().first('y')).toThrow('not an MD5 in hex: "y"');
  });
});

describe('ContentSeen with a budget', () => {
  it('answers the first URL of every content far past its budget, from disk, and touches no file within it', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'tarantula-content-'));
    try {
      const small = new ContentSeen({ dir: join(dir, 'small'), budgetBytes: 64 << 20 });
      for (let i = 0; i < 10_000; i++) small.add(md5(`page ${i}`), `http://a.test/${i}`);
      expect(small.spilled).toBe(0);
      expect(existsSync(join(dir, 'small'))).toBe(false);
      await small.close();

      // 256 KiB: a spill about every 1,400 pages of 60-character URLs.
      const seen = new ContentSeen({ dir: join(dir, 'seen'), budgetBytes: 256 << 10 });
      const url = (i: number): string => `http://h${i % 7}.test/some/path/of/a/page/${i}.html?q=${'x'.repeat(i % 13)}`;
      for (let i = 0; i < 60_000; i++) {
        expect(seen.add(md5(`page ${i}`), url(i))).toBeUndefined();
        if (i % 5_000 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(seen.spilled).toBeGreaterThan(55_000);
      expect(seen.size).toBe(60_000);
      for (let i = 0; i < 60_000; i += 7) expect(seen.add(md5(`page ${i}`), `http://copy.test/${i}`)).toBe(url(i));
      for (let i = 0; i < 60_000; i += 11) expect(seen.first(md5(`page ${i}`).toUpperCase())).toBe(url(i));
      for (let i = 60_000; i < 70_000; i++) expect(seen.first(md5(`page ${i}`))).toBeUndefined();
      expect(seen.size).toBe(60_000);
      await seen.close();
      expect(existsSync(join(dir, 'seen'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

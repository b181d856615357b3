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

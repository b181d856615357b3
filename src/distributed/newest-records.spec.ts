import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NewestRecords } from './newest-records.js';

const md5 = (url: string): string => createHash('md5').update(url).digest('hex');
const T1 = Date.parse('2026-12-01T09:00:00Z');
const T2 = Date.parse('2026-12-02T09:00:00Z');

describe('NewestRecords', () => {
  it('takes the newest record of a URL, once, whichever part offered it first', () => {
    const newest = new NewestRecords();
    newest.offer(md5('http://a/'), T1, 0);
    newest.offer(md5('http://a/'), T2, 1);
    newest.offer(md5('http://b/'), T2, 0);
    newest.offer(md5('http://b/'), T1, 1);
    expect(newest.size).toBe(2);
    expect(newest.take(md5('http://a/'), T1, 0)).toBe(false);
    expect(newest.take(md5('http://a/'), T2, 1)).toBe(true);
    expect(newest.take(md5('http://a/'), T2, 1)).toBe(false);
    expect(newest.take(md5('http://b/'), T1, 1)).toBe(false);
    expect(newest.take(md5('http://b/'), T2, 0)).toBe(true);
  });

  it('keeps the first of records fetched at the same time, and counts a record without a time as oldest', () => {
    const newest = new NewestRecords();
    newest.offer(md5('http://a/'), T1, 2);
    newest.offer(md5('http://a/'), T1, 1);
    newest.offer(md5('http://b/'), NaN, 0);
    newest.offer(md5('http://b/'), T1, 1);
    newest.offer(md5('http://c/'), NaN, 3);
    expect(newest.take(md5('http://a/'), T1, 1)).toBe(false);
    expect(newest.take(md5('http://a/'), T1, 2)).toBe(true);
    expect(newest.take(md5('http://b/'), T1, 1)).toBe(true);
    expect(newest.take(md5('http://c/'), NaN, 3)).toBe(true);
  });

  it('keeps every URL apart as it grows past its first capacity', () => {
    const newest = new NewestRecords(16);
    const urls = Array.from({ length: 5000 }, (_, i) => md5(`http://h/${i}`));
    urls.forEach((u, i) => newest.offer(u, T1 + i, i % 3));
    urls.forEach((u, i) => newest.offer(u, T1 + i - (i % 2), 3)); // older for odd i, as old (first kept) for even
    expect(newest.size).toBe(5000);
    expect(urls.every((u, i) => newest.take(u, T1 + i, i % 3))).toBe(true);
  });
});

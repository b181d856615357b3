import { describe, expect, it } from 'vitest';
import type { IndexRecord } from '../model/index-record.js';
import { RecrawlSchedule } from './recrawl-schedule.js';

const NOW = Date.parse('2026-12-01T00:00:00.000Z');
const rec = (contentMd5: string, extra: Partial<IndexRecord> = {}): IndexRecord => ({
  md5: 'm', url: 'http://h/', originalUrl: 'http://h/', title: null, encoding: null, type: 'html', lastModified: null, serverDate: null,
  status: 200, etag: null, localPath: 'h/index.html', contentLength: 1, contentMd5, depth: 0, fetchedAt: '2026-12-01T00:00:00.000Z',
  durationMs: 1, duplicateOf: null, links: [], ...extra,
});
const schedule = (policy: 'fixed' | 'adaptive') =>
  new RecrawlSchedule({ policy, periodHours: 72, minIntervalHours: 1, maxIntervalHours: 720, now: () => NOW });

describe('RecrawlSchedule', () => {
  it('adaptive: a new page starts at period; changed ÷ 1.5, unchanged (same MD5 or 304) × 1.5, clamped', () => {
    const s = schedule('adaptive');
    expect(s.schedule(rec('a'), undefined, false)).toMatchObject({ fetchIntervalHours: 72, nextFetch: '2026-12-04T00:00:00.000Z' });
    expect(s.schedule(rec('b'), rec('a', { fetchIntervalHours: 72 }), false).fetchIntervalHours).toBe(48);
    expect(s.schedule(rec('a'), rec('a', { fetchIntervalHours: 72 }), false).fetchIntervalHours).toBe(108);
    expect(s.schedule(rec('a'), rec('a', { fetchIntervalHours: 72 }), true).fetchIntervalHours).toBe(108);
    expect(s.schedule(rec('b'), rec('a', { fetchIntervalHours: 1.2 }), false).fetchIntervalHours).toBe(1);
    expect(s.schedule(rec('a'), rec('a', { fetchIntervalHours: 700 }), true).fetchIntervalHours).toBe(720);
    // A record from before the schedule existed continues from period.
    expect(s.schedule(rec('a'), rec('a'), true).fetchIntervalHours).toBe(108);
    expect(s.earliest).toBe(NOW + 3_600_000);
  });

  it('is due when nextFetch has passed, or always under the fixed policy and for records without one', () => {
    const s = schedule('adaptive');
    expect(s.isDue(rec('a', { nextFetch: '2026-11-30T23:59:59.000Z' }))).toBe(true);
    expect(s.isDue(rec('a', { nextFetch: '2026-12-01T00:00:01.000Z' }))).toBe(false);
    expect(s.isDue(rec('a'))).toBe(true);
    expect(schedule('fixed').isDue(rec('a', { nextFetch: '2027-01-01T00:00:00.000Z' }))).toBe(true);
    s.carry(rec('a', { nextFetch: '2026-12-02T00:00:00.000Z' }));
    expect(s.earliest).toBe(Date.parse('2026-12-02T00:00:00.000Z'));
  });
});

import { describe, expect, it } from 'vitest';
import type { IndexRecord } from '../model/index-record.js';
import type { Outcome } from '../model/outcome.js';
import type { KnownPage } from '../state/crawl-state.js';
import { RecrawlSchedule } from '../state/recrawl-schedule.js';
import { scheduleRecrawl } from './schedule-recrawl.js';
import { toDocument } from './store-document.js';
import { fetched, marbles, parsed, request } from '../../test/support/admission-values.js';

type Document = Extract<Outcome, { kind: 'document' }>;
const NOW = Date.parse('2026-12-01T00:00:00Z');
const inHours = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

/** The document outcome of `html` fetched from http://a.test/`path`, as parseDocument and storeDocument make it; `kept` when a recrawl found it unchanged. */
async function documentOf(path: string, html: string, kept?: IndexRecord): Promise<Document> {
  const p = await parsed(fetched(`http://a.test/${path}`, html));
  return toDocument(kept ? { ...p, kept } : p, `a.test/${path}`) as Document;
}
const known = (record: IndexRecord, fetchIntervalHours: number): KnownPage => ({ record: { ...record, fetchIntervalHours }, contentType: 'text/html', indexed: true });

describe('scheduleRecrawl', () => {
  it('gives each document, in order, its next interval from the last crawl\'s record; other outcomes pass untouched', async () => {
    const schedule = new RecrawlSchedule({ policy: 'adaptive', periodHours: 72, minIntervalHours: 1, maxIntervalHours: 720, now: () => NOW });
    const fresh = await documentOf('new', 'new');
    const changed = await documentOf('changed', 'v2');
    const same = await documentOf('same', 'same body');
    const before = await documentOf('kept', 'stored copy');
    const kept = await documentOf('kept', 'stored copy', before.record);
    const last = new Map([
      ['http://a.test/changed', known((await documentOf('changed', 'v1')).record, 9)],
      ['http://a.test/same', known(same.record, 10)],
      // A 304 alone says unchanged, whatever MD5 the last crawl's record holds.
      ['http://a.test/kept', known({ ...before.record, contentMd5: 'not the kept one' }, 600)],
    ]);
    const failed: Outcome = { kind: 'failed', req: request('http://a.test/gone'), status: 404, code: 'http-404', message: 'HTTP 404' };
    const skipped: Outcome = { kind: 'skipped', req: request('http://a.test/private'), reason: 'robots' };
    const next = (o: Document, hours: number) => ({ ...o, record: { ...o.record, fetchIntervalHours: hours, nextFetch: inHours(hours) } });
    marbles().run(({ cold, expectObservable }) => {
      const values = { n: fresh, c: changed, f: failed, r: skipped, s: same, k: kept };
      // New: the period; changed: 9 / 1.5; the same MD5: 10 × 1.5; a 304: 600 × 1.5, clamped to max-interval.
      expectObservable(cold('nc-frsk|', values).pipe(scheduleRecrawl(schedule, last))).toBe('nc-frsk|', {
        n: next(fresh, 72),
        c: next(changed, 6),
        f: failed,
        r: skipped,
        s: next(same, 15),
        k: next(kept, 720),
      });
    });
    expect(schedule.earliest).toBe(Date.parse(inHours(6)));
  });
});

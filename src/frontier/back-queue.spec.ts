import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrawlRequest } from '../model/crawl-request.js';
import { ObjectQueue, PackedQueue, type BackQueue } from './back-queue.js';
import { crawlRequestCodec } from './request-codec.js';
import { SegmentStore } from './segment-store.js';
import { SpillingQueue } from './spilling-queue.js';

const tmp = mkdtempSync(join(tmpdir(), 'back-queue-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** A store whose budget is always spent, with blocks of a few entries: nearly every push spills. */
const tinyStore = (name: string): SegmentStore => new SegmentStore(join(tmp, name), 0, { spillBytes: 300, maxBlockBytes: 700, keepBytes: 200, segmentBytes: 16 * 1024 });

const req = (i: number): CrawlRequest => ({
  url: `http://h.test/p/${i}${'x'.repeat(i % 50)}`,
  host: 'h.test',
  depth: i % 300,
  originalUrl: i % 3 === 0 ? `http://h.test/p/${i}${'x'.repeat(i % 50)}` : `rel/${i}/κ`,
  redirects: i % 4,
  attempt: i % 3,
  ...(i % 5 === 0 ? { again: true } : {}),
  ...(i % 7 === 0 ? { sitemap: i % 4 } : {}),
  ...(i % 11 === 0 ? { sitemapLastmod: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00+01:00` } : {}),
});

/** Drives both queues with the same random operations: the packed one must answer as the object one does. */
describe.each([
  ['packed', () => new PackedQueue<CrawlRequest>('h.test', crawlRequestCodec)],
  ['spilling, taken from the front', () => new SpillingQueue<CrawlRequest>('h.test', crawlRequestCodec, tinyStore(`fifo-${Math.random()}`), false)],
  ['spilling, taken from the back', () => new SpillingQueue<CrawlRequest>('h.test', crawlRequestCodec, tinyStore(`lifo-${Math.random()}`), true)],
])('%s back queue', (_name, make) => {
  it('behaves as a double-ended queue of the same requests, through growth and emptying', () => {
    const packed: BackQueue<CrawlRequest> = make();
    const model = new ObjectQueue<CrawlRequest>();
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const op = random();
      if (op < 0.3) [packed, model].forEach((q) => q.pushBack(req(i), i));
      else if (op < 0.5) [packed, model].forEach((q) => q.pushFront(req(i), i));
      else if (op < 0.75) expect(packed.popFront()).toEqual(model.popFront());
      else expect(packed.popBack()).toEqual(model.popBack());
      expect(packed.size).toBe(model.size);
      if (model.size > 0) expect([packed.frontSeq(), packed.backSeq()]).toEqual([model.frontSeq(), model.backSeq()]);
    }
    expect([...packed.requests()]).toEqual([...model.requests()]);
  });

  it('round-trips a request byte for byte, original URL in UTF-8 included', () => {
    const q = make();
    const r: CrawlRequest = { url: 'http://h.test/a?b=%CE%BA', host: 'h.test', depth: 70000, originalUrl: ' ./a?b=κ ', redirects: 2, attempt: 1 };
    q.pushBack(r, 41);
    expect(q.popFront()).toEqual({ seq: 41, req: { ...r, depth: 0xffff } });
  });
});

describe('packed back queue', () => {
  it('takes a first buffer sized to its entry, not a fixed block, and none while empty', () => {
    const q = new PackedQueue<CrawlRequest>('h.test', crawlRequestCodec);
    const r: CrawlRequest = { url: 'http://h.test/p/1', host: 'h.test', depth: 1, originalUrl: 'http://h.test/p/1', redirects: 0, attempt: 0 };
    q.pushBack(r, 0);
    expect(q.footprint).toBeLessThan(256);
    q.pushBack(r, 1);
    q.pushFront(r, 2);
    [0, 1, 2].forEach(() => q.popFront());
    expect(q.footprint).toBe(0);
    q.pushFront(r, 3);
    expect(q.popBack()).toEqual({ seq: 3, req: r });
  });
});

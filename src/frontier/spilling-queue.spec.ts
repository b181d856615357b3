import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrawlRequest } from '../model/crawl-request.js';
import { hostFrontier, type Frontier } from './host-frontier.js';
import { crawlRequestCodec } from './request-codec.js';
import { SegmentStore } from './segment-store.js';
import { SpillingQueue } from './spilling-queue.js';

const tmp = mkdtempSync(join(tmpdir(), 'spilling-queue-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let stores = 0;
/** A store that spills past `budget` bytes, in blocks of a few dozen requests and segments of a few blocks. */
const store = (budget = 0): SegmentStore =>
  new SegmentStore(join(tmp, `s${++stores}`), budget, { spillBytes: 1024, maxBlockBytes: 4096, keepBytes: 512, segmentBytes: 16 * 1024 });

const req = (host: string, i: number, level = 1): CrawlRequest => ({
  url: `http://${host}/p/${i}`, host, depth: i % 7, originalUrl: `http://${host}/p/${i}`, redirects: 0, attempt: 0, ...(level > 1 ? { level } : {}),
});

/** Pulls and releases until nothing is ready, as one thread with no delays would. */
function drain(f: Frontier<CrawlRequest>, limit = Infinity): string[] {
  const out: string[] = [];
  for (let r = f.pull(0); r !== undefined && out.length < limit; r = out.length < limit ? f.pull(0) : undefined) {
    out.push(r.url);
    f.release(r, 0);
  }
  return out;
}

const frontier = (order: 'bfs' | 'dfs', levels: number, spill?: SegmentStore): Frontier<CrawlRequest> =>
  hostFrontier<CrawlRequest>({ order, politeness: { delayMs: () => 0 }, codec: crawlRequestCodec, levels, levelOf: (r) => r.level ?? 1, ...(spill ? { spill } : {}) });

describe('a frontier whose queues spill to disk', () => {
  it.each([['bfs', 1], ['dfs', 1], ['bfs', 4], ['dfs', 4]] as const)('takes requests in the order of one held in memory (%s, %i levels)', (order, levels) => {
    const spill = store();
    const [disk, memory] = [frontier(order, levels, spill), frontier(order, levels)];
    const taken: [string[], string[]] = [[], []];
    let i = 0;
    // Rounds of pages found and pages taken, so that blocks are written and read back while requests keep coming.
    for (let round = 0; round < 40; round++) {
      const found = Array.from({ length: 150 }, () => req(`h${i % 3}.test`, i, 1 + ((i++ * 7) % levels)));
      for (const f of [disk, memory]) f.pushAll(found);
      taken[0].push(...drain(disk, 60));
      taken[1].push(...drain(memory, 60));
      expect(disk.size).toBe(memory.size);
    }
    expect(spill.spilled).toBeGreaterThan(1000);
    expect(readdirSync(spill.dir).length).toBeGreaterThan(1);
    expect([...disk.pending()].map((r) => r.url).sort()).toEqual([...memory.pending()].map((r) => r.url).sort());
    taken[0].push(...drain(disk));
    taken[1].push(...drain(memory));
    expect(taken[0]).toEqual(taken[1]);
    expect(taken[0]).toHaveLength(6000);
    // Every block was read back: the segments went with them (but the one being written).
    expect(spill.spilled).toBe(0);
    expect(readdirSync(spill.dir).length).toBeLessThanOrEqual(1);
    spill.close();
    expect(existsSync(spill.dir)).toBe(false);
  });

  it('puts a request back in its old place before the spilled ones (a retry)', () => {
    const spill = store();
    const f = frontier('bfs', 1, spill);
    f.pushAll(Array.from({ length: 500 }, (_, i) => req('a.test', i)));
    const first = f.pull(0)!;
    f.release(first, 0, { kind: 'again', next: { ...first, attempt: 1 } });
    expect(drain(f).slice(0, 2)).toEqual(['http://a.test/p/0', 'http://a.test/p/1']);
    spill.close();
  });

  it('spills nothing while the bytes held stay within the budget', () => {
    const spill = store(1024 * 1024);
    const f = frontier('bfs', 4, spill);
    f.pushAll(Array.from({ length: 5000 }, (_, i) => req(`h${i % 50}.test`, i)));
    expect([spill.spilled, existsSync(spill.dir)]).toEqual([0, false]);
    expect(spill.held).toBeGreaterThan(100_000);
    expect(drain(f)).toHaveLength(5000);
    expect(spill.held).toBe(0);
  });

  it('holds about its budget in memory, however many requests are pending', () => {
    const spill = store(64 * 1024);
    const f = frontier('bfs', 1, spill);
    for (let i = 0; i < 50_000; i++) f.push(req(`h${i % 20}.test`, i));
    // Each host keeps at most a block's worth beyond the budget before it spills.
    expect(spill.held).toBeLessThan(64 * 1024 + 20 * (1024 + 512 + 100));
    expect(spill.spilled).toBeGreaterThan(45_000);
    spill.close();
  });

  it('keeps in memory what it could not write, and says so once (a full disk)', async () => {
    const blocked = join(tmp, 'not-a-folder');
    writeFileSync(blocked, '');
    const spill = new SegmentStore(join(blocked, 'frontier'), 0, { spillBytes: 1024 });
    const q = new SpillingQueue<CrawlRequest>('a.test', crawlRequestCodec, spill, false);
    for (let i = 0; i < 100; i++) q.pushBack(req('a.test', i), i);
    expect((await spill.full).message).toMatch(/^the crawl state .*not-a-folder\/frontier can take no more: ENOTDIR/);
    expect([spill.spilled, spill.over]).toEqual([0, false]);
    expect(Array.from({ length: 100 }, () => q.popFront()!.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

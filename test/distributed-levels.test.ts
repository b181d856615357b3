import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlShards } from '../src/distributed/crawl-shards.js';
import { indexMember, queuedRequest, type SeenKey } from '../src/distributed/level-queues-script.js';
import { ShardedSync, type CrawlSync } from '../src/distributed/sharded-sync.js';
import type { Admit } from '../src/distributed/sync-script.js';
import { ObjectQueue } from '../src/frontier/back-queue.js';
import { FrontQueues } from '../src/frontier/front-queues.js';
import { crawlRequestCodec } from '../src/frontier/request-codec.js';
import { fingerprintOf } from '../src/frontier/seen-set.js';
import type { CrawlRequest } from '../src/model/crawl-request.js';
import { startRedis, type TestRedis } from './support/redis-server.js';

/**
 * The priority levels of the shared host queues, through the sync script on a real redis-server:
 * a host's requests come out of Redis level by level as the local front queues take them, and a URL
 * found again moves up while it waits there.
 */
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.close();
});

const HOST = 'lv.test';
const request = (k: number, level: number, depth = 2): CrawlRequest => {
  const url = `http://${HOST}/${k}`;
  return { url, host: HOST, depth, originalUrl: url, redirects: 0, attempt: 0, level };
};
const keyOf = (url: string): SeenKey => {
  const [hi, lo] = fingerprintOf(url);
  return { bucket: hi >>> 16, member: (hi & 0xffff) * 2 ** 32 + lo };
};
/** A request as a worker queues it with priority levels. */
const bytes = (req: CrawlRequest): Buffer => queuedRequest(req, keyOf(req.url));
const admit = (req: CrawlRequest): Admit => {
  const key = keyOf(req.url);
  return { bucket: key.bucket, member: String(key.member), host: req.host, blob: bytes(req), index: indexMember(key, req.level ?? 1) };
};
const read = (blob: Buffer): CrawlRequest => crawlRequestCodec.decode(blob, 0, blob.length, HOST);

/** One worker's syncs with the script, on a connection of its own. */
function worker(crawlId: string, order: 'bfs' | 'dfs' = 'bfs', levels = 4, name = 'w') {
  const connection = new Redis(redis.url);
  // One shard: every sync is one call, nothing waits.
  const sync = new ShardedSync(connection, crawlShards([crawlId]), name, { waitMs: 0, ends: 0 });
  const base: CrawlSync = {
    worker: name, ttlMs: 60_000, want: 0, batch: 64, order, maxPagesPerHost: 0, maxPages: 0, wantPermits: 0, returnedPermits: 0,
    reapDelayMs: 0, levels, admits: [], ends: [], renew: [], back: [], more: [], raises: [], fresh: false, all: false, since: 0, hungry: true,
  };
  return {
    call: (r: Partial<CrawlSync>) => sync.sync({ ...base, ...r }),
    /** Leases the host, then asks for more until its queues are empty: every request in the order Redis gave them. */
    async drain(batch = 64): Promise<Buffer[]> {
      const got: Buffer[] = [];
      // More of the host if this worker holds it, else a lease of it.
      let reply = await sync.sync({ ...base, batch, want: 1, more: [HOST] });
      for (;;) {
        const taken = reply.taken.flatMap((t) => t.blobs);
        got.push(...taken);
        if (reply.taken.every((t) => t.left === 0)) return got;
        reply = await sync.sync({ ...base, batch, more: [HOST] });
      }
    },
    close: () => connection.disconnect(),
  };
}

/** The order in which the local front queues give the same requests (queued in the same order). */
function localOrder(reqs: readonly CrawlRequest[], order: 'bfs' | 'dfs'): string[] {
  const q = new FrontQueues<CrawlRequest>(4, (r) => r.level ?? 1, () => new ObjectQueue(), HOST);
  reqs.forEach((r, seq) => q.pushBack(r, seq));
  const out: string[] = [];
  for (let e = order === 'dfs' ? q.popBack() : q.popFront(); e !== undefined; e = order === 'dfs' ? q.popBack() : q.popFront()) out.push(e.req.url);
  return out;
}

/** 300 requests of one host: mostly level 1, some 2, a few 3 and 4, mixed in arrival order. */
const MIXED = Array.from({ length: 300 }, (_, k) => request(k, k % 50 === 7 ? 4 : k % 20 === 3 ? 3 : k % 6 === 1 ? 2 : 1));

describe('priority levels inside a host\'s shared queue (sync script, real redis-server)', () => {
  for (const order of ['bfs', 'dfs'] as const) {
    it(`hands out a host's ${MIXED.length} queued requests in the local front queues' order, over many batches (${order})`, async () => {
      const w = worker(`mixed-${order}`, order);
      await w.call({ admits: MIXED.map(admit) });
      // Small batches: the selector's credits must carry from one take to the next.
      const got = (await w.drain(7)).map((b) => read(b).url);
      expect(got).toEqual(localOrder(MIXED, order));
      // The lowest level is not starved: level-1 requests come before the last of the higher ones.
      const firstLow = got.findIndex((u) => MIXED[Number(u.split('/').pop())]!.level === 1);
      expect(firstLow).toBeLessThan(10);
      w.close();
    });
  }

  it('keeps one list per host, as before, with one level', async () => {
    const w = worker('one', 'bfs', 1);
    await w.call({ admits: MIXED.map(admit) });
    const client = redis.client();
    expect(await client.llen(`t:{one}:q:${HOST}`)).toBe(MIXED.length);
    expect(await client.keys('t:{one}:v:*')).toEqual([]);
    expect((await w.drain()).map((b) => read(b).url)).toEqual(MIXED.map((r) => r.url));
    w.close();
  });

  it('moves a URL found again up while it waits, hands it out once, and a raise of a URL already taken does nothing', async () => {
    const w = worker('raise');
    const reqs = Array.from({ length: 200 }, (_, k) => request(k, 1));
    await w.call({ admits: reqs.map(admit) });
    const first = await w.call({ want: 1, batch: 10 });
    expect(first.taken[0]!.blobs.map((b) => read(b).url)).toEqual(reqs.slice(0, 10).map((r) => r.url));
    // 150 waits in Redis, 5 was taken: both are found again at level 3.
    await w.call({ raises: [request(150, 3, 3), request(5, 3, 3)].map((r) => ({ host: HOST, blob: bytes(r) })) });
    const rest = (await w.drain()).map(read);
    expect(rest[0]!.url).toBe(`http://${HOST}/150`);
    expect(rest[0]!.level).toBe(3);
    const urls = [...first.taken[0]!.blobs.map((b) => read(b).url), ...rest.map((r) => r.url)];
    expect(urls.sort()).toEqual(reqs.map((r) => r.url).sort());
    // The stale copy is gone with the queues, and so are the index and the host's credits.
    const client = redis.client();
    expect(await client.keys(`t:{raise}:[qrv]*`)).toEqual([]);
    expect(await client.hlen('t:{raise}:levels')).toBe(0);
    w.close();
  });

  it('gives a host back with its requests at their levels, in their old places, indexed again', async () => {
    const w = worker('back');
    await w.call({ admits: MIXED.map(admit) });
    const taken = (await w.call({ want: 1, batch: 20 })).taken[0]!.blobs;
    await w.call({ back: [{ host: HOST, delayMs: 0 }] });
    // Given back unfinished, then found again higher: one of them moves up.
    const low = taken.map(read).find((r) => r.level! < 4)!;
    await w.call({ raises: [{ host: HOST, blob: bytes({ ...low, level: 4 }) }] });
    // Another worker takes it (the one that gave it back leaves it to the others first).
    const other = worker('back', 'bfs', 4, 'other');
    const all = (await other.drain()).map(read);
    expect(all.map((r) => r.url).sort()).toEqual(MIXED.map((r) => r.url).sort());
    // Indexed again when given back: it comes once, at its new level.
    expect(all.filter((r) => r.url === low.url).map((r) => r.level)).toEqual([4]);
    // Each level gives what was taken from it first, in the order it was taken.
    for (const level of [1, 2, 3, 4]) {
      const before = taken.map(read).filter((r) => r.level === level && r.url !== low.url).map((r) => r.url);
      expect(all.filter((r) => r.level === level).map((r) => r.url).slice(0, before.length)).toEqual(before);
    }
    w.close();
    other.close();
  });
});

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlShards } from '../src/distributed/crawl-shards.js';
import { SharedFrontier, type SharedFrontierOptions } from '../src/distributed/shared-frontier.js';
import type { CrawlRequest } from '../src/model/crawl-request.js';
import { ENDED } from '../src/model/request-end.js';
import { startRedis, type TestRedis } from './support/redis-server.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.close();
});

const request = (url: string): CrawlRequest => ({ url, host: new URL(url).host, depth: 1, originalUrl: url, redirects: 0, attempt: 0 });

/** A worker's shared frontier on its own connection; `errors` collects what it reports. */
function worker(crawlId: string, name: string, opts: Partial<SharedFrontierOptions> = {}) {
  const connection = new Redis(redis.url);
  const errors: Error[] = [];
  const frontier = new SharedFrontier({
    redis: connection, shards: crawlShards([crawlId]), worker: name, order: 'bfs', maxPerHost: 1, politeness: { delayMs: () => 0 },
    requestsInFlight: 1, leaseMs: 60_000, maxPagesPerHost: 0, maxPages: 0, reapDelayMs: 0, durable: async () => undefined, canonical: (u) => u, onError: (err) => errors.push(err), ...opts,
  });
  return { frontier, connection, errors };
}

/** Pulls until `n` requests came (or 10 s passed); `finish` ends each one as it comes, as the crawl loop would. */
async function pullN(frontier: SharedFrontier, n: number, finish = false): Promise<CrawlRequest[]> {
  const got: CrawlRequest[] = [];
  const until = Date.now() + 10_000;
  while (got.length < n && Date.now() < until) {
    const req = frontier.pull(Date.now());
    if (req === undefined) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    got.push(req);
    if (finish) {
      frontier.release(req, Date.now(), ENDED);
    }
  }
  return got;
}

describe('the shared frontier on a real redis-server', () => {
  it('gives a dead worker’s host to another once its lease runs out, its unfinished requests first and in order', async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `http://a.test/${i}`);
    const a = worker('reap', 'a', { leaseMs: 400, maxPerHost: 2 });
    a.frontier.pushAll(urls.map(request));
    const first = await pullN(a.frontier, 2);
    expect(first.map((r) => r.url)).toEqual(urls.slice(0, 2));
    // Links found elsewhere meanwhile queue behind what a took.
    const b = worker('reap', 'b', { leaseMs: 400 });
    const later = ['http://a.test/later-1', 'http://a.test/later-2'];
    b.frontier.pushAll(later.map(request));
    await b.frontier.flush();
    // Worker a dies with two requests in flight and four unstarted: it renews nothing any more.
    a.connection.disconnect();
    const again = await pullN(b.frontier, 8, true);
    expect(again.map((r) => r.url)).toEqual([...urls, ...later]);
    expect(a.errors.length).toBeGreaterThan(0);
    await b.frontier.close();
    expect(Number(await redis.client().hget('t:{reap}:n', 'open'))).toBe(0);
    b.connection.disconnect();
  });

  it('gives a host back at the end of its time slice to another worker first, not to the one that had it', async () => {
    // One host, worked by a without a pause: after its 1 s slice (one lease period) it goes back, and
    // a, which learns first that it is ready again, must leave it to b, which is idle and asking.
    const urls = Array.from({ length: 400 }, (_, i) => `http://slice.test/${i}`);
    const a = worker('slice', 'a', { leaseMs: 1000, politeness: { delayMs: () => 5 } });
    const b = worker('slice', 'b', { leaseMs: 1000, politeness: { delayMs: () => 5 } });
    a.frontier.pushAll(urls.map(request));
    await a.frontier.flush();
    const byWorker = { a: [] as string[], b: [] as string[] };
    const until = Date.now() + 20_000;
    while (byWorker.a.length + byWorker.b.length < urls.length && Date.now() < until) {
      let pulled = false;
      for (const [name, w] of [['a', a], ['b', b]] as const) {
        const req = w.frontier.pull(Date.now());
        if (req === undefined) continue;
        pulled = true;
        byWorker[name].push(req.url);
        w.frontier.release(req, Date.now(), ENDED);
      }
      if (!pulled) await new Promise((r) => setTimeout(r, 2));
    }
    expect([...byWorker.a, ...byWorker.b].sort()).toEqual([...urls].sort());
    expect(byWorker.a.length).toBeGreaterThan(0);
    expect(byWorker.b.length).toBeGreaterThan(0);
    await a.frontier.close();
    await b.frontier.close();
    a.connection.disconnect();
    b.connection.disconnect();
  });

  it('admits each URL once across workers, and keeps max-pages-per-host across them', async () => {
    const a = worker('admit', 'a', { maxPagesPerHost: 3 });
    const b = worker('admit', 'b', { maxPagesPerHost: 3 });
    const urls = ['http://h.test/1', 'http://h.test/2', 'http://h.test/3', 'http://h.test/4', 'http://g.test/1'];
    a.frontier.pushAll(urls.map(request));
    b.frontier.pushAll([...urls].reverse().map(request));
    await a.frontier.flush();
    await b.frontier.flush();
    const client = redis.client();
    expect(Number(await client.hget('t:{admit}:n', 'open'))).toBe(4);
    const queued = (await client.lrange('t:{admit}:q:h.test', 0, -1)).length + (await client.lrange('t:{admit}:k:h.test', 0, -1)).length;
    expect(queued).toBe(3);
    await a.frontier.close();
    await b.frontier.close();
    a.connection.disconnect();
    b.connection.disconnect();
  });

  it('on several shards, a worker killed while an end waits for its links to reach another shard loses nothing: the page comes back and its links are found again', async () => {
    // Three shards (hash tags) on one server: the scripts and the waiting are those of a cluster.
    const shards = crawlShards(['held:0', 'held:1', 'held:2']);
    const hostOn = (k: number): string => Array.from({ length: 64 }, (_, i) => `s${i}.test`).find((h) => shards.shardOf(h) === k)!;
    const home = hostOn(0);
    const away = hostOn((shards.shardOf(home) + 1) % 3);
    const pages = Array.from({ length: 10 }, (_, i) => request(`http://${home}/${i}`));
    const link = request(`http://${away}/found`);
    // Links wait a minute for their shard: only a renewal calls the home host's shard meanwhile.
    const a = worker('held', 'a', { shards, leaseMs: 1000, shardWaitMs: 60_000 });
    a.frontier.pushAll(pages);
    await a.frontier.flush();
    const [first] = await pullN(a.frontier, 1);
    expect(first!.url).toBe(pages[0]!.url);
    // Fetched: its link goes to the other shard's waiting room, its end waits for it.
    a.frontier.push(link);
    a.frontier.release(first!, Date.now(), ENDED);
    const calls = a.frontier.roundTrips;
    while (a.frontier.roundTrips === calls) await new Promise((r) => setTimeout(r, 5));
    const client = redis.client();
    const [homeTag, awayTag] = [shards.prefixes[shards.shardOf(home)]!, shards.prefixes[shards.shardOf(away)]!];
    // The home host's shard was called after the end: the page is still taken there (all ten), its link nowhere.
    expect(await client.llen(`${homeTag}k:${home}`)).toBe(pages.length);
    expect(await client.llen(`${awayTag}q:${away}`)).toBe(0);
    a.connection.disconnect();
    // Another worker gets the host once the lease runs out, fetches the page again and finds the link.
    const b = worker('held', 'b', { shards, leaseMs: 1000 });
    const got: string[] = [];
    const until = Date.now() + 20_000;
    while (got.length < pages.length + 1 && Date.now() < until) {
      const req = b.frontier.pull(Date.now());
      if (req === undefined) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      got.push(req.url);
      if (req.url === pages[0]!.url) b.frontier.push(link);
      b.frontier.release(req, Date.now(), ENDED);
    }
    expect(got.sort()).toEqual([...pages.map((p) => p.url), link.url].sort());
    await b.frontier.close();
    for (const prefix of shards.prefixes) expect(Number(await client.hget(`${prefix}n`, 'open')), prefix).toBe(0);
    b.connection.disconnect();
  });
});

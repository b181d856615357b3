import { describe, expect, it } from 'vitest';
import type { CrawlRequest } from '../model/crawl-request.js';
import { ArenaSlabs } from './arena-slabs.js';
import { ObjectQueue, PackedQueue, type BackQueue } from './back-queue.js';
import { FrontQueues } from './front-queues.js';
import { hostFrontier, type Frontier } from './host-frontier.js';
import { crawlRequestCodec } from './request-codec.js';
import { SmallQueue, type SmallQueueKind } from './small-queue.js';

/** A deterministic stream of numbers in [0, 1). */
const random = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

const req = (host: string, i: number, level: number): CrawlRequest => ({
  url: `http://${host}/p/${i}${'x'.repeat(i % 13)}`, host, depth: i % 5, originalUrl: `http://${host}/p/${i}${'x'.repeat(i % 13)}`, redirects: 0, attempt: i % 3, ...(level > 1 ? { level } : {}),
});
const levelOf = (r: CrawlRequest) => r.level ?? 1;

describe('SmallQueue', () => {
  it.each([1, 2, 4])('takes what queues a level (FrontQueues) take, in the same order, at both ends (%i levels)', (levels) => {
    const store = { held: 0 };
    const kind: SmallQueueKind<CrawlRequest> = { codec: crawlRequestCodec, levels, levelOf: levels > 1 ? levelOf : undefined, store, slabs: new ArenaSlabs() };
    const next = random(levels);
    let small: BackQueue<CrawlRequest> = new SmallQueue('h.test', kind);
    const front = new FrontQueues<CrawlRequest>(levels, levelOf, () => new ObjectQueue(), 'h.test');
    let seq = 0;
    let grownAt = -1;
    for (let step = 0; step < 4000; step++) {
      const op = next();
      if (op < 0.5 || front.size === 0) {
        const r = req('h.test', seq, 1 + Math.floor(next() * levels) + (next() < 0.1 ? 3 : 0));
        const atFront = next() < 0.3;
        for (const q of [small, front]) atFront ? q.pushFront(r, seq) : q.pushBack(r, seq);
        seq++;
      } else {
        const fromFront = next() < 0.5;
        expect(fromFront ? small.frontSeq() : small.backSeq()).toBe(fromFront ? front.frontSeq() : front.backSeq());
        expect(fromFront ? small.popFront() : small.popBack()).toEqual(fromFront ? front.popFront() : front.popBack());
      }
      expect(small.size).toBe(front.size);
      // Once, halfway and with requests waiting: the same requests in queues a level go on alike.
      if (small instanceof SmallQueue && step > 2000 && small.size > 5) {
        small = small.grown((name) => new PackedQueue(name, crawlRequestCodec)).queue;
        grownAt = step;
        expect(store.held).toBe(0);
      }
    }
    expect(grownAt).toBeGreaterThan(0);
    expect([...small.requests()].map((r) => r.url).sort()).toEqual([...front.requests()].map((r) => r.url).sort());
  });

  it('counts its arena against the spill budget, and lets it go when emptied', () => {
    const store = { held: 0 };
    const q = new SmallQueue<CrawlRequest>('h.test', { codec: crawlRequestCodec, levels: 4, levelOf, store, slabs: new ArenaSlabs() });
    for (let i = 0; i < 20; i++) q.pushBack(req('h.test', i, 1 + (i % 4)), i);
    expect(store.held).toBeGreaterThan(q.bytes);
    while (q.popFront() !== undefined);
    expect([q.size, q.bytes, store.held]).toEqual([0, 0, 0]);
  });

  it('holds a request too big for a slab block in a buffer of its own, and goes back to blocks', () => {
    const slabs = new ArenaSlabs();
    const q = new SmallQueue<CrawlRequest>('h.test', { codec: crawlRequestCodec, levels: 1, levelOf: undefined, store: undefined, slabs });
    const long = { ...req('h.test', 1, 1), url: `http://h.test/${'y'.repeat(6000)}` };
    q.pushBack(req('h.test', 0, 1), 0);
    q.pushBack(long, 1);
    q.pushFront(req('h.test', 2, 1), 2);
    expect([q.popFront()!.seq, q.popFront()!.req.url, q.popBack()!.req.url]).toEqual([2, req('h.test', 0, 1).url, long.url]);
    q.pushBack(req('h.test', 3, 1), 3);
    expect(q.popFront()!.seq).toBe(3);
  });
});

describe('ArenaSlabs', () => {
  it('gives blocks that do not overlap, and a freed block again for the same size', () => {
    const slabs = new ArenaSlabs();
    const blocks = Array.from({ length: 200 }, (_, i) => slabs.alloc(100 + i * 20));
    const spans = blocks.map((b, i) => [Math.floor(b / 2 ** 18), slabs.offset(b), slabs.offset(b) + ArenaSlabs.size(100 + i * 20)] as const);
    for (const [i, [s, start, end]] of spans.entries())
      for (const [t, other, otherEnd] of spans.slice(i + 1)) expect(s !== t || end <= other || otherEnd <= start).toBe(true);
    expect(spans.every(([, start, end]) => end - start >= 100 && end <= 2 ** 18)).toBe(true);
    slabs.free(blocks[3]!, ArenaSlabs.size(160));
    expect(slabs.alloc(150)).toBe(blocks[3]);
    expect(slabs.slab(blocks[0]!)).toBe(slabs.slab(blocks[1]!));
  });
});

describe('a frontier of small queues', () => {
  /** Pulls and releases as one thread would, now and then putting a request back in its place. */
  const drain = (f: Frontier<CrawlRequest>, limit: number, next: () => number): string[] => {
    const out: string[] = [];
    for (let r = f.pull(0); r !== undefined; r = out.length < limit ? f.pull(0) : undefined) {
      out.push(r.url);
      const again = next() < 0.1 && r.attempt < 2;
      f.release(r, 0, again ? { kind: 'again', next: { ...r, attempt: r.attempt + 1 } } : undefined);
    }
    return out;
  };

  it.each([['bfs', 1], ['dfs', 1], ['bfs', 4], ['dfs', 4]] as const)('takes requests in the order of queues a level (%s, %i levels), as hosts grow and empty', (order, levels) => {
    const make = (codec: boolean) =>
      hostFrontier<CrawlRequest>({ order, politeness: { delayMs: () => 0 }, levels, levelOf, maxPerHost: 2, ...(codec ? { codec: crawlRequestCodec } : {}) });
    const [packed, objects] = [make(true), make(false)];
    const taken: [string[], string[]] = [[], []];
    const [a, b] = [random(7), random(7)];
    const pick = random(3);
    let i = 0;
    for (let round = 0; round < 60; round++) {
      // Some hosts get a few links, one gets dozens (grows past its arena), then all drain a while.
      const found = Array.from({ length: 40 }, () => {
        const host = pick() < 0.5 ? 'big.test' : `h${Math.floor(pick() * 30)}.test`;
        return req(host, i++, 1 + Math.floor(pick() * levels));
      });
      packed.pushAll(found);
      objects.pushAll(found);
      taken[0].push(...drain(packed, 35, a));
      taken[1].push(...drain(objects, 35, b));
      expect(packed.size).toBe(objects.size);
    }
    taken[0].push(...drain(packed, Infinity, a));
    taken[1].push(...drain(objects, Infinity, b));
    expect(taken[0]).toEqual(taken[1]);
    expect(packed.size).toBe(0);
  });
});

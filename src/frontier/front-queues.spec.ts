import { describe, expect, it } from 'vitest';
import { ObjectQueue } from './back-queue.js';
import { FrontQueues } from './front-queues.js';
import { hostFrontier } from './host-frontier.js';

interface Req { readonly host: string; readonly url: string; readonly level: number }
const queues = (levels: number) => new FrontQueues<Req>(levels, (r) => r.level, () => new ObjectQueue(), 'h');
const req = (url: string, level: number): Req => ({ host: 'h', url, level });

describe('FrontQueues', () => {
  it('takes from the higher levels more often, by weight 2^(L-1), and never starves the lowest', () => {
    const q = queues(4);
    let seq = 0;
    for (let i = 0; i < 90; i++) q.pushBack(req(`low${i}`, 1), seq++);
    for (let i = 0; i < 90; i++) q.pushBack(req(`high${i}`, 4), seq++);
    const first = Array.from({ length: 45 }, () => q.popFront()!.req.url);
    // 8 of every 9 from level 4, the 9th from level 1, spread out rather than in bursts.
    expect(first.filter((u) => u.startsWith('low'))).toEqual(['low0', 'low1', 'low2', 'low3', 'low4']);
    expect(first.indexOf('low1') - first.indexOf('low0')).toBe(9);
    // FIFO inside each level.
    expect(first.filter((u) => u.startsWith('high')).slice(0, 3)).toEqual(['high0', 'high1', 'high2']);
    expect(q.size).toBe(135);
  });

  it('answers frontSeq and backSeq for the level it will take next, and clamps levels to 1..K', () => {
    const q = queues(2);
    q.pushBack(req('a', 1), 0);
    q.pushBack(req('b', 9), 1);
    q.pushBack(req('c', 0), 2);
    expect(q.frontSeq()).toBe(1);
    expect(q.popFront()!.req.url).toBe('b');
    expect([q.frontSeq(), q.backSeq()]).toEqual([0, 2]);
    expect(q.popBack()!.req.url).toBe('c');
    expect([...q.requests()].map((r) => r.url)).toEqual(['a']);
    q.pushFront(req('d', 1), 3);
    expect(q.popFront()!.req.url).toBe('d');
  });

  it('takes over a queue of one level as that level, and adds the others beside it', () => {
    const first = new ObjectQueue<Req>();
    first.pushBack(req('a', 2), 0);
    first.pushBack(req('b', 2), 1);
    const q = new FrontQueues<Req>(4, (r) => r.level, () => new ObjectQueue(), 'h', { queue: first, level: 1 });
    q.pushBack(req('c', 1), 2);
    q.pushBack(req('d', 2), 3);
    expect(q.size).toBe(4);
    // Weights 2 and 1: level 2 twice for level 1's once, and level 2 in the order it came (a, b, then d).
    expect(Array.from({ length: 4 }, () => q.popFront()!.req.url)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('inside the frontier: with one level the order is the plain FIFO; with two, a higher level goes first', () => {
    const politeness = { delayMs: () => 0 };
    const order = (levels: number) => {
      const f = hostFrontier<Req>({ order: 'bfs', politeness, levels, levelOf: (r) => r.level });
      f.pushAll([req('a', 1), req('b', 1), req('c', 2)]);
      const out: string[] = [];
      for (let r = f.pull(0); r !== undefined; r = f.pull(0)) {
        out.push(r.url);
        f.release(r, 0);
      }
      return out;
    };
    expect(order(1)).toEqual(['a', 'b', 'c']);
    expect(order(2)).toEqual(['c', 'a', 'b']);
  });
});

import { describe, expect, it } from 'vitest';
import { hostFrontier } from './host-frontier.js';

interface R {
  readonly host: string;
  readonly id: string;
}
const r = (id: string): R => ({ host: id.split('/')[0]!, id });
const noDelay = { delayMs: () => 0 };

function drain(f: ReturnType<typeof hostFrontier<R>>, now = 0): string[] {
  const out: string[] = [];
  for (let req = f.pull(now); req; req = f.pull(now)) {
    out.push(req.id);
    f.release(req, now);
  }
  return out;
}

describe('hostFrontier', () => {
  it('takes requests across hosts in arrival order for bfs', () => {
    const f = hostFrontier<R>({ order: 'bfs', politeness: noDelay });
    for (const id of ['a/1', 'b/1', 'a/2', 'c/1', 'b/2']) f.push(r(id));
    expect(drain(f)).toEqual(['a/1', 'b/1', 'a/2', 'c/1', 'b/2']);
  });

  it('takes the newest request first across hosts for dfs', () => {
    const f = hostFrontier<R>({ order: 'dfs', politeness: noDelay });
    for (const id of ['a/1', 'b/1', 'a/2', 'c/1', 'b/2']) f.push(r(id));
    expect(drain(f)).toEqual(['b/2', 'c/1', 'a/2', 'b/1', 'a/1']);
  });

  it('gives the links of one page in document order under dfs', () => {
    const f = hostFrontier<R>({ order: 'dfs', politeness: noDelay });
    f.push(r('a/old'));
    f.pushAll([r('a/1'), r('b/2'), r('a/3')]);
    expect(drain(f)).toEqual(['a/1', 'b/2', 'a/3', 'a/old']);
  });

  it('keeps a host out of reach while a request to it is in flight', () => {
    const f = hostFrontier<R>({ order: 'bfs', politeness: noDelay });
    f.pushAll([r('a/1'), r('a/2'), r('b/1')]);
    const first = f.pull(0)!;
    expect(first.id).toBe('a/1');
    expect(f.pull(0)!.id).toBe('b/1');
    expect(f.pull(0)).toBeUndefined();
    f.release(first, 0);
    expect(f.pull(0)!.id).toBe('a/2');
  });

  it('allows max-per-host requests in flight to one host', () => {
    const f = hostFrontier<R>({ order: 'bfs', maxPerHost: 2, politeness: noDelay });
    f.pushAll([r('a/1'), r('a/2'), r('a/3')]);
    expect([f.pull(0)?.id, f.pull(0)?.id, f.pull(0)?.id]).toEqual(['a/1', 'a/2', undefined]);
  });

  it('waits the politeness delay after a release and reports when the host is ready', () => {
    const f = hostFrontier<R>({ order: 'bfs', politeness: { delayMs: (h) => (h === 'a' ? 100 : 10) } });
    f.pushAll([r('a/1'), r('a/2'), r('b/1'), r('b/2')]);
    const a1 = f.pull(0)!;
    const b1 = f.pull(0)!;
    f.release(a1, 5);
    f.release(b1, 5);
    expect(f.pull(6)).toBeUndefined();
    expect(f.nextReadyAt()).toBe(15);
    expect(f.pull(15)!.id).toBe('b/2');
    expect(f.pull(104)).toBeUndefined();
    expect(f.pull(105)!.id).toBe('a/2');
    expect(f.size).toBe(0);
  });

  it('refuses pushes beyond maxSize', () => {
    const f = hostFrontier<R>({ order: 'bfs', maxSize: 2, politeness: noDelay });
    expect(f.pushAll([r('a/1'), r('b/1'), r('c/1')])).toBe(2);
    expect(f.push(r('d/1'))).toBe(false);
    expect(f.size).toBe(2);
  });

  it('puts a requeued request back at the head of its host in its old place', () => {
    for (const order of ['bfs', 'dfs'] as const) {
      const f = hostFrontier<R>({ order, politeness: noDelay });
      f.pushAll([r('a/1'), r('b/1'), r('a/2')]);
      const first = f.pull(0)!;
      f.release(first, 0, { kind: 'again', next: first });
      expect(drain(f)).toEqual(['a/1', 'b/1', 'a/2']);
    }
  });

  it('lists pending requests and forgets idle hosts', () => {
    const f = hostFrontier<R>({ order: 'bfs', politeness: noDelay });
    for (let i = 0; i < 3000; i++) f.push(r(`h${i}/x`));
    expect([...f.pending()].length).toBe(3000);
    expect(drain(f).length).toBe(3000);
    expect(f.size).toBe(0);
    expect(f.nextReadyAt()).toBeUndefined();
  });
});

describe('hostFrontier skip', () => {
  it('discards the requests the skip predicate refuses, and takes the next', () => {
    const taken = new Set<string>();
    const f = hostFrontier<R>({ order: 'dfs', politeness: noDelay, skip: (req) => taken.has(req.id) || (taken.add(req.id), false) });
    f.pushAll([r('a/1'), r('a/2'), r('a/3')]);
    f.push(r('a/3')); // found again: on top, the older copy is skipped later
    expect(drain(f)).toEqual(['a/3', 'a/1', 'a/2']);
    expect(f.size).toBe(0);
  });
});

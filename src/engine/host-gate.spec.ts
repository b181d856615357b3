import { describe, expect, it } from 'vitest';
import type { FetchResponse } from '../model/fetch-response.js';
import { hostFrontier } from '../frontier/host-frontier.js';
import { Politeness } from '../frontier/politeness.js';
import { HostGate } from './host-gate.js';

const noDelays = (): Politeness => new Politeness({ delayFactor: 0, minDelayMs: 0, maxDelayMs: 0 });
const tick = (ms = 10): Promise<void> => new Promise((go) => setTimeout(go, ms));

const response = { status: 200, headers: {}, body: Buffer.alloc(0), durationMs: 0, startedAt: 0, truncated: false } as unknown as FetchResponse;

/** A fetch that ends when its test says so, and says when it began. */
function held(log: string[], name: string): { fetch: () => Promise<FetchResponse>; end: () => void } {
  let end!: () => void;
  const ended = new Promise<void>((done) => (end = done));
  return {
    fetch: () => {
      log.push(`${name} began`);
      return ended.then(() => {
        log.push(`${name} ended`);
        return response;
      });
    },
    end: () => end(),
  };
}

describe('HostGate', () => {
  it('lets one request to a host out at a time, and requests to other hosts at once', async () => {
    const gate = new HostGate(noDelays());
    const log: string[] = [];
    const [a1, a2, b1] = [held(log, 'a1'), held(log, 'a2'), held(log, 'b1')];
    const done = [gate.through('a.test', a1.fetch), gate.through('a.test', a2.fetch), gate.through('b.test', b1.fetch)];
    await tick();
    expect(log).toEqual(['a1 began', 'b1 began']);
    a1.end();
    b1.end();
    await done[0];
    await tick();
    expect(log).toContain('a2 began');
    a2.end();
    await Promise.all(done);
    expect(log.indexOf('a2 began')).toBeGreaterThan(log.indexOf('a1 ended'));
  });

  it('lets the next request out after a failed one', async () => {
    const gate = new HostGate(noDelays());
    await expect(gate.through('a.test', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(gate.through('a.test', () => Promise.resolve(response))).resolves.toBe(response);
  });

  it("with the frontier's slots: waits while the crawler's request holds the host's one slot, and the host's own requests wait behind it", async () => {
    const politeness = noDelays();
    const frontier = hostFrontier<{ host: string; url: string }>({ order: 'bfs', politeness, maxPerHost: 1 });
    const gate = new HostGate(politeness, { borrow: (h, now) => frontier.borrow!(h, now), giveBack: (h, now) => frontier.giveBack!(h, now), forgo: (h) => frontier.forgo!(h) });
    frontier.push({ host: 'a.test', url: 'http://a.test/1' });
    const first = frontier.pull(Date.now())!;
    const log: string[] = [];
    const browser = held(log, 'browser');
    const done = gate.through('a.test', browser.fetch);
    await tick(50);
    expect(log).toEqual([]);
    frontier.push({ host: 'a.test', url: 'http://a.test/2' });
    frontier.release(first, Date.now());
    await tick(50);
    expect(log).toEqual(['browser began']);
    // The slot is the browser's: the crawler's next request to the host waits for it.
    expect(frontier.pull(Date.now())).toBeUndefined();
    browser.end();
    await done;
    expect(frontier.pull(Date.now())?.url).toBe('http://a.test/2');
  });

  it('refuses a request that found no slot free within its patience, and lets the host go on', async () => {
    const politeness = noDelays();
    const frontier = hostFrontier<{ host: string; url: string }>({ order: 'bfs', politeness, maxPerHost: 1 });
    const gate = new HostGate(politeness, { borrow: (h, now) => frontier.borrow!(h, now), giveBack: (h, now) => frontier.giveBack!(h, now), forgo: (h) => frontier.forgo!(h) }, 0);
    frontier.push({ host: 'a.test', url: 'http://a.test/1' });
    const first = frontier.pull(Date.now())!;
    frontier.push({ host: 'a.test', url: 'http://a.test/2' });
    await expect(gate.through('a.test', () => Promise.resolve(response))).rejects.toThrow('no slot of a.test');
    frontier.release(first, Date.now());
    expect(frontier.pull(Date.now())?.url).toBe('http://a.test/2');
  });
});

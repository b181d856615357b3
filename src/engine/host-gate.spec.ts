import { describe, expect, it } from 'vitest';
import type { FetchResponse } from '../model/fetch-response.js';
import { HostGate } from './host-gate.js';

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
    const gate = new HostGate({ delayFactor: 0, minDelayMs: 0, maxDelayMs: 0 });
    const log: string[] = [];
    const [a1, a2, b1] = [held(log, 'a1'), held(log, 'a2'), held(log, 'b1')];
    const done = [gate.through('a.test', a1.fetch), gate.through('a.test', a2.fetch), gate.through('b.test', b1.fetch)];
    await new Promise((tick) => setTimeout(tick, 10));
    expect(log).toEqual(['a1 began', 'b1 began']);
    a1.end();
    b1.end();
    await done[0];
    await new Promise((tick) => setTimeout(tick, 10));
    expect(log).toContain('a2 began');
    a2.end();
    await Promise.all(done);
    expect(log.indexOf('a2 began')).toBeGreaterThan(log.indexOf('a1 ended'));
  });

  it('lets the next request out after a failed one', async () => {
    const gate = new HostGate({ delayFactor: 0, minDelayMs: 0, maxDelayMs: 0 });
    await expect(gate.through('a.test', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(gate.through('a.test', () => Promise.resolve(response))).resolves.toBe(response);
  });
});

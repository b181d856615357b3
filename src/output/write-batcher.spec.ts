import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { WriteBatcher } from './write-batcher.js';

/** A batcher over an array of the writes it made; each write takes `ms`. */
function recording(limits: ConstructorParameters<typeof WriteBatcher>[1], ms = 0) {
  const writes: string[] = [];
  let inFlight = 0, maxInFlight = 0;
  const batcher = new WriteBatcher(async (text) => {
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    await sleep(ms);
    writes.push(text);
    inFlight--;
  }, limits);
  return { batcher, writes, maxInFlight: () => maxInFlight };
}

describe('WriteBatcher', () => {
  it('writes a short batch once, after the delay', async () => {
    const { batcher, writes } = recording({ delayMs: 30, maxChars: 1000 });
    batcher.add('a');
    batcher.add('b');
    await sleep(5);
    expect(writes).toEqual([]);
    await sleep(60);
    expect(writes).toEqual(['ab']);
  });

  it('writes at once when a batch reaches its characters or its count', async () => {
    const byChars = recording({ delayMs: 10_000, maxChars: 4 });
    byChars.batcher.add('ab');
    byChars.batcher.add('cd');
    await byChars.batcher.flush();
    expect(byChars.writes).toEqual(['abcd']);
    const byCount = recording({ delayMs: 10_000, maxChars: 1000, maxItems: 2 });
    byCount.batcher.add('x');
    byCount.batcher.add('y');
    await sleep(5);
    expect(byCount.writes).toEqual(['xy']);
  });

  it('keeps one write at a time, in order, and flush() waits for everything', async () => {
    const { batcher, writes, maxInFlight } = recording({ delayMs: 1, maxChars: 2 }, 5);
    for (const t of ['1', '2', '3', '4', '5', '6', '7']) {
      batcher.add(t);
      await sleep(1);
    }
    await batcher.flush();
    expect(writes.join('')).toBe('1234567');
    expect(maxInFlight()).toBe(1);
    expect(batcher.pendingChars).toBe(0);
  });

  it('forgets what waits when told to discard it', async () => {
    const { batcher, writes } = recording({ delayMs: 5, maxChars: 1000 });
    batcher.add('lost');
    expect(batcher.pendingChars).toBe(4);
    batcher.discard();
    await sleep(20);
    await batcher.flush();
    expect(writes).toEqual([]);
  });
});

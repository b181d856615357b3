import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CrawlContext } from '../engine/crawl-context.js';
import { CrawlStats } from '../sinks/crawl-stats.js';
import { startProgress } from './progress.js';

function fakeContext(infos: unknown[], maxPageNumber = 0) {
  const stats = new CrawlStats();
  const ctx = {
    stats,
    config: { maxPageNumber, timeLimitMs: 0 },
    state: { documents: 0 },
    frontier: { size: 120, hosts: 7, inFlight: 3 },
    log: { info: (obj: unknown) => infos.push(obj) },
  } as unknown as CrawlContext;
  return { ctx, stats };
}

describe('startProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('redraws one status line on a terminal, with the time left to max-page-number, and clears it when stopped', () => {
    const written: string[] = [];
    const stderr = { isTTY: true, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const { ctx, stats } = fakeContext([], 200);
    const stop = startProgress(ctx, stderr);
    stats.documents = 50;
    vi.advanceTimersByTime(500);
    stats.documents = 60;
    stats.failures = 2;
    vi.advanceTimersByTime(500);
    stop();
    // pages/s over the last 5 s; ETA: 150 pages left at 100/s, then 140 at 60/s, rounded up to the second
    expect(written).toEqual([
      '\r\x1b[K50 pages  100.0/s  queued 120  in flight 3  failures 0  0:00:00  ETA 0:00:02',
      '\r\x1b[K60 pages  60.0/s  queued 120  in flight 3  failures 2  0:00:01  ETA 0:00:03',
      '\r\x1b[K',
    ]);
  });

  it('shows no ETA when nothing bounds the crawl', () => {
    const written: string[] = [];
    const stderr = { isTTY: true, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const { ctx, stats } = fakeContext([]);
    const stop = startProgress(ctx, stderr);
    stats.documents = 5;
    vi.advanceTimersByTime(500);
    stop();
    expect(written[0]).toBe('\r\x1b[K5 pages  10.0/s  queued 120  in flight 3  failures 0  0:00:00');
  });

  it('logs a progress line every 10 s elsewhere, never writing to the stream', () => {
    const written: string[] = [];
    const infos: unknown[] = [];
    const stderr = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const { ctx, stats } = fakeContext(infos);
    const stop = startProgress(ctx, stderr);
    stats.documents = 300;
    vi.advanceTimersByTime(10_000);
    stop();
    vi.advanceTimersByTime(20_000);
    expect(written).toEqual([]);
    expect(infos).toEqual([{ documents: 300, rate: 30, queued: 120, hosts: 7, errors: 0, elapsed: '0:00:10' }]);
  });
});

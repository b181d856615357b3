import { describe, expect, it } from 'vitest';
import { Politeness } from './politeness.js';

describe('Politeness', () => {
  const heritrix = { delayFactor: 5, minDelayMs: 3000, maxDelayMs: 30000 };

  it.each([
    [100, 3000],
    [1000, 5000],
    [10_000, 30000],
  ])('rests a host for factor × a %i ms fetch, clamped: %i ms', (duration, expected) => {
    const p = new Politeness(heritrix);
    p.recordFetch('a.test', duration);
    expect(p.delayMs('a.test')).toBe(expected);
  });

  it('never rests less than the robots.txt crawl-delay or a requested back-off', () => {
    const p = new Politeness({ ...heritrix, crawlDelayMs: (h) => (h === 'slow.test' ? 45_000 : 0) });
    p.recordFetch('slow.test', 10);
    expect(p.delayMs('slow.test')).toBe(45_000);
    p.backoff('a.test', 120_000);
    expect(p.delayMs('a.test')).toBe(120_000);
    expect(p.delayMs('a.test')).toBe(3000);
  });

  it('gives a host skipped for a Crawl-delay above max-crawl-delay no rest: its queued requests are skipped at once', () => {
    const p = new Politeness({ ...heritrix, maxCrawlDelayMs: 60_000, crawlDelayMs: (h) => (h === 'greedy.test' ? 100_000_000 : 60_000) });
    p.recordFetch('greedy.test', 10);
    p.backoff('greedy.test', 5000);
    expect(p.delayMs('greedy.test')).toBe(0);
    expect(p.delayMs('a.test')).toBe(60_000);
  });

  it('has no delay when every bound is zero', () => {
    const p = new Politeness({ delayFactor: 0, minDelayMs: 0, maxDelayMs: 0 });
    p.recordFetch('a.test', 50);
    expect(p.delayMs('a.test')).toBe(0);
  });
});

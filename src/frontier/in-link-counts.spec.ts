import { describe, expect, it } from 'vitest';
import { inLinkCounts } from './in-link-counts.js';

describe('inLinkCounts', () => {
  it('counts links to each URL, exactly while few URLs share its counters, and saturates at 255', () => {
    const counts = inLinkCounts();
    for (let i = 0; i < 20_000; i++) counts.add(`http://h.test/page-${i % 5000}`);
    expect(counts.get('http://h.test/page-7')).toBe(4);
    expect(counts.get('http://h.test/never')).toBe(0);
    let exact = 0;
    for (let i = 0; i < 5000; i++) if (counts.get(`http://h.test/page-${i}`) === 4) exact++;
    expect(exact).toBe(5000);
    for (let i = 0; i < 300; i++) counts.add('http://h.test/hub');
    expect(counts.get('http://h.test/hub')).toBe(255);
  });

  it('never counts less than the truth, even when far more URLs than counters collide', () => {
    const counts = inLinkCounts();
    const truth = new Map<string, number>();
    for (let i = 0; i < 400_000; i++) {
      const url = `http://h${i % 97}.test/${(i * 7919) % 300_000}`;
      counts.add(url);
      truth.set(url, (truth.get(url) ?? 0) + 1);
    }
    let over = 0;
    for (const [url, n] of truth) {
      expect(counts.get(url)).toBeGreaterThanOrEqual(Math.min(n, 255));
      if (counts.get(url) > n) over++;
    }
    console.log(`in-link counts: ${truth.size} URLs in 2^18 counters a row, ${over} counted high (${((100 * over) / truth.size).toFixed(1)} %)`);
  });
});

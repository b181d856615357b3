import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count.js';

describe('formatCount', () => {
  it.each([0, 7, 43, 999, 1000, 1204, 65536, 1_000_000, 123_456_789, -5310, 12.5, 1234.25])('writes %d as toLocaleString("en") does', (n) => {
    expect(formatCount(n)).toBe(n.toLocaleString('en', { maximumFractionDigits: 20 }));
  });
});

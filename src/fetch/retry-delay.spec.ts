import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './retry-delay.js';

describe('retryDelayMs', () => {
  it.each([
    [0, 500, 1000],
    [1, 1000, 2000],
    [2, 2000, 4000],
    [5, 16_000, 32_000],
    [6, 30_000, 60_000],
    [20, 30_000, 60_000],
  ])('the retry after attempt %i waits between %i and %i ms', (attempt, low, high) => {
    expect(retryDelayMs(attempt, () => 0)).toBe(low);
    expect(retryDelayMs(attempt, () => 1)).toBe(high);
    const jittered = retryDelayMs(attempt);
    expect(jittered).toBeGreaterThanOrEqual(low);
    expect(jittered).toBeLessThanOrEqual(high);
  });
});

import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.js';

describe('retryAfterMs', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it.each([
    ['0', 0],
    ['1', 1000],
    [' 120 ', 120_000],
    ['Wed, 21 Oct 2015 07:28:30 GMT', 30_000],
    ['Wednesday, 21-Oct-15 07:29:00 GMT', 60_000],
    ['Wed, 21 Oct 2015 07:00:00 GMT', 0],
  ])('reads %j as %i ms', (header, ms) => {
    expect(retryAfterMs(header, now)).toBe(ms);
  });

  it.each([undefined, '', 'soon', '-5', '1.5', '2015-10-21'])('is undefined for %j', (header) => {
    expect(retryAfterMs(header, now)).toBeUndefined();
  });
});

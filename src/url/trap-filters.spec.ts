import { describe, expect, it } from 'vitest';
import { exceedsPathRepetition, exceedsUrlLength } from './trap-filters.js';

describe('exceedsPathRepetition', () => {
  it.each([
    // [url, max, exceeds]
    ['http://x.com/a/b/a/b/a/', 2, true],
    ['http://x.com/a/b/a/b/', 2, false],
    ['http://x.com/a/a/a/', 2, true],
    ['http://x.com/a/a/', 2, false],
    ['http://x.com/a/a/a/', 3, false],
    ['http://x.com/a/b/c/d/e/f/g/', 1, false],
    ['http://x.com/a//a//a', 2, true],
    ['http://x.com////////', 1, false],
    ['http://x.com/cal/2024/cal/2024/cal/2024/cal', 3, true],
    ['http://x.com/a/a/a/a/a/a/a/a/', 0, false],
    ['http://x.com/a/a/a/a/', -1, false],
    ['http://x.com/a/a/?p=/a/a/a', 2, false],
    ['http://x.com/', 1, false],
  ] as const)('%s with max %i is %s', (url, max, expected) => {
    expect(exceedsPathRepetition(new URL(url), max)).toBe(expected);
  });
});

describe('exceedsUrlLength', () => {
  it.each([
    ['http://x.com/abc', 16, false],
    ['http://x.com/abcd', 16, true],
    [`http://x.com/${'a'.repeat(5000)}`, 0, false],
  ] as const)('%s with max %i is %s', (url, max, expected) => {
    expect(exceedsUrlLength(url, max)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { memoryShares } from './memory-budget.js';

describe('memoryShares', () => {
  it('splits the budget: half to the frontier, a quarter each to the seen-set and the page tables', () => {
    const mb = 1024 * 1024;
    expect(memoryShares(64)).toEqual({ frontierBytes: 32 * mb, seenBytes: 16 * mb, pageTablesBytes: 16 * mb });
  });

  it('never hands out more than the budget', () => {
    const s = memoryShares(9);
    expect(s.frontierBytes + s.seenBytes + s.pageTablesBytes).toBeLessThanOrEqual(9 * 1024 * 1024);
  });
});

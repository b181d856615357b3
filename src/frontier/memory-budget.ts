/** How many bytes each part of the crawl's bounded state may hold in memory before it spills to disk. */
export interface MemoryShares {
  /** The frontier's pending URLs (the heads of the per-host queues; the rest in segment files). */
  readonly frontierBytes: number;
  /** The seen-set of URL fingerprints. */
  readonly seenBytes: number;
  /** The per-page tables: content MD5s, the near-duplicate index, in-link counts. */
  readonly pageTablesBytes: number;
}

const MB = 1024 * 1024;

/**
 * Splits `memory-budget` (MB) between the parts that grow with the crawl. The frontier gets the
 * largest share: a pending URL costs 7 times a seen one (about 123 B against 17), and a broad
 * crawl holds 20 pending URLs for each page fetched. Each part spills only past its own share, so
 * a crawl that fits in the budget does no disk I/O for it at all.
 *
 * @example
 * memoryShares(64) //=> { frontierBytes: 32 MiB, seenBytes: 16 MiB, pageTablesBytes: 16 MiB }
 */
export function memoryShares(budgetMb: number): MemoryShares {
  const total = Math.max(0, budgetMb) * MB;
  return { frontierBytes: Math.floor(total / 2), seenBytes: Math.floor(total / 4), pageTablesBytes: Math.floor(total / 4) };
}

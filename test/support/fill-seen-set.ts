/**
 * Adds URLS random URLs to a spilling seen-set in DIR with a 64 KiB budget (a spill every 3,072
 * URLs, 24 KiB a run), in a process of its own so that a test can give it a file-size limit; prints
 * whether and why writing failed, and whether every URL was still seen and no other.
 *
 *   node --import tsx test/support/fill-seen-set.ts DIR URLS
 */
import { spillingSeenSet } from '../../src/frontier/seen-set.js';

const [dir, count] = process.argv.slice(2);
const seen = spillingSeenSet({ dir: dir!, budgetBytes: 64 << 10 });
const url = (i: number, salt: string): string => `http://h${i % 100}.test/${salt}/${i}`;
let failed: string | undefined;
void seen.failed.then((err) => (failed = (err as NodeJS.ErrnoException).code));
for (let i = 0; i < Number(count); i++) {
  seen.add(url(i, 'in'));
  // Room for the merges in the background, as a crawl's fetches give them.
  if (i % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
}
await new Promise((resolve) => setTimeout(resolve, 50));
let allSeen = true, noneOther = true;
for (let i = 0; i < Number(count); i++) {
  allSeen &&= seen.has(url(i, 'in')) && !seen.add(url(i, 'in'));
  noneOther &&= !seen.has(url(i, 'out'));
}
process.stdout.write(JSON.stringify({ failed, allSeen, noneOther, size: seen.size, spilled: seen.spilled }));
await seen.close();

/**
 * The frontier alone, filled without fetching (`npm run bench:frontier`): `--urls` pending requests of
 * a synthetic web's shape (`http://hN.bench.test/p/I.html`, spread over `--hosts` hosts) pushed into
 * hostFrontier as the crawl configures it (packed by crawlRequestCodec, 4 priority levels, spilling
 * to segment files past the frontier's share of `--memory-budget`), then all pulled and released as
 * one thread with no politeness delay would. Prints the push and pull rates, the peak RSS (VmHWM)
 * after the fill, and the disk bytes a pending URL costs at the fullest.
 *
 *   npx tsx bench/frontier.ts [--urls 10000000] [--hosts 1000] [--memory-budget 64] [--in-memory]
 *
 * `--in-memory` keeps every queue in memory, as a crawl without a budget would.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { hostFrontier } from '../src/frontier/host-frontier.js';
import { memoryShares } from '../src/frontier/memory-budget.js';
import { crawlRequestCodec } from '../src/frontier/request-codec.js';
import { SegmentStore } from '../src/frontier/segment-store.js';
import type { CrawlRequest } from '../src/model/crawl-request.js';
import { DEFAULT_MEMORY_BUDGET_MB } from '../src/model/config.js';

setFlagsFromString('--expose-gc');
const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void;

const value = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const urls = value('--urls', 10_000_000);
const hosts = value('--hosts', 1000);
const budgetMb = value('--memory-budget', DEFAULT_MEMORY_BUDGET_MB);
const inMemory = process.argv.includes('--in-memory');

const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const status = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024;
/** Bytes the folder's files take on disk (allocated blocks: segments are sparse until written). */
const diskBytes = (dir: string): number => {
  try {
    return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).blocks * 512, 0);
  } catch {
    return 0;
  }
};

const dir = mkdtempSync(join(tmpdir(), 'tarantula-bench-frontier-'));
const store = inMemory ? undefined : new SegmentStore(join(dir, 'frontier'), memoryShares(budgetMb).frontierBytes);
const frontier = hostFrontier<CrawlRequest>({
  order: 'bfs', politeness: { delayMs: () => 0 }, codec: crawlRequestCodec, levels: 4, levelOf: (r) => r.level ?? 1, ...(store ? { spill: store } : {}),
});
const request = (i: number): CrawlRequest => {
  const host = `h${(i * 7919) % hosts}.bench.test`;
  const url = `http://${host}/p/${i}.html`;
  // One in 8 moved up a level or more, as links found again move pages up.
  return { url, host, depth: 3, originalUrl: url, redirects: 0, attempt: 0, ...(i % 8 === 0 ? { level: 1 + (i % 4) } : {}) };
};

console.log(`machine: load average ${fmt(loadavg()[0] ?? 0, 2)}, node ${process.version}`);
console.log(`frontier of ${fmt(urls, 0)} pending URLs on ${fmt(hosts, 0)} hosts, ${inMemory ? 'all in memory' : `memory-budget ${budgetMb} MB (the frontier's share: ${fmt(memoryShares(budgetMb).frontierBytes / 2 ** 20, 0)} MiB)`}`);
let t = performance.now();
for (let i = 0; i < urls; i++) frontier.push(request(i));
const pushSeconds = (performance.now() - t) / 1000;
const disk = diskBytes(join(dir, 'frontier'));
console.log(`  push           ${fmt(pushSeconds, 2)} s → ${fmt(urls / pushSeconds / 1e6, 2)} M URLs/s`);
const peakFill = status('VmHWM');
gc();
const live = process.memoryUsage();
console.log(`  memory         peak RSS ${fmt(peakFill, 0)} MB while filling; after a full GC: RSS ${fmt(status('VmRSS'), 0)} MB, heap ${fmt(live.heapUsed / 2 ** 20, 0)} MiB + buffers ${fmt(live.arrayBuffers / 2 ** 20, 0)} MiB; queued bytes in memory ${fmt((store?.held ?? 0) / 2 ** 20, 1)} MiB`);
if (store) console.log(`  disk           ${fmt(store.spilled, 0)} URLs in blocks (${fmt(store.spilledBytes / store.spilled, 1)} B each); ${fmt(disk / 2 ** 20, 0)} MiB allocated = ${fmt(disk / urls, 1)} B a pending URL`);
t = performance.now();
let pulled = 0;
for (let r = frontier.pull(0); r !== undefined; r = frontier.pull(0)) {
  frontier.release(r, 0);
  pulled++;
}
const pullSeconds = (performance.now() - t) / 1000;
console.log(`  pull+release   ${fmt(pullSeconds, 2)} s → ${fmt(pulled / pullSeconds / 1e6, 2)} M URLs/s (${fmt(pulled, 0)} pulled); peak RSS ${fmt(status('VmHWM'), 0)} MB`);
store?.close();
rmSync(dir, { recursive: true, force: true });
if (pulled !== urls) {
  console.log(`  INCOMPLETE: ${pulled} of ${urls}`);
  process.exitCode = 1;
}

/**
 * Seeds streamed into a crawl (`npm run bench:seeds`): a generator writes N URL lines into
 * `tarantula crawl -i -` over the synthetic web, as fast as the pipe takes them, and the crawler's
 * peak RSS shows whether the input is read with backpressure (bounded) or into memory:
 *
 *   npm run bench:seeds                                 # 1,000,000 seeds, then 10,000 for comparison
 *   npm run bench:seeds -- --seeds 200000 [--pages 1000] [--hosts 50] [--threads 16]
 *
 * Seed i is `http://h{i mod hosts}.bench.test/p/{i}.html`: the first `pages` of them are pages of
 * about 10 KB (fetched, parsed, stored), the rest 404s (fetched, nothing stored). Links are not
 * followed (every link is rejected; seeds are always fetched) and no sitemap is read, so the crawl
 * requests exactly the seeds (and each host's robots.txt).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { startChildServer } from './child-server.js';
import { runCrawler, type CrawlSettings } from './run-crawler.js';
import { expected, pageUrl } from './synthetic-web.js';

const argv = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const pages = Number(value('--pages') ?? 1_000);
const hosts = Number(value('--hosts') ?? 50);
const threads = Number(value('--threads') ?? 16);
const sizes = value('--seeds') ? [Number(value('--seeds'))] : [1_000_000, 10_000];
const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Writes the seed lines in chunks of about 64 KB, waiting whenever the pipe is full. */
async function writeSeeds(input: Writable, count: number, port: number): Promise<void> {
  const web = { pages: count, hosts, port };
  input.on('error', () => {}); // the crawler may exit before reading everything (it must not, but then the figures say so)
  let chunk = '';
  for (let i = 0; i < count; i++) {
    chunk += `${pageUrl(i, web)}\n`;
    if (chunk.length < 65_536 && i < count - 1) continue;
    if (!input.write(chunk)) await new Promise((ok) => input.once('drain', ok));
    chunk = '';
  }
  input.end();
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, node ${process.version}, load average ${fmt(loadavg()[0] ?? 0, 2)} at start`);
const server = await startChildServer('synthetic-web.ts', ['--pages', String(pages), '--hosts', String(hosts)]);
let ok = true;
try {
  for (const seeds of sizes) {
    const work = await mkdtemp(join(tmpdir(), 'tarantula-bench-seeds-'));
    try {
      const settings: CrawlSettings = {
        seeds: [],
        scope: 'domain-scope',
        resolve: expected({ pages, hosts }).hostNames.map((h) => `${h}:${server.port}:127.0.0.1`),
        threads, maxPerHost: 1, timeLimitSeconds: 1200,
      };
      const run = await runCrawler(settings, work, { args: ['-i', '-', '--reject-list', '.', '--sitemaps', 'false'], stdin: (input) => writeSeeds(input, seeds, server.port) });
      const s = run.stats;
      const notFound = s.byStatus['404'] ?? 0;
      const want = Math.min(seeds, pages);
      const complete = run.exitCode === 0 && s.documents === want && notFound === seeds - want;
      ok &&= complete;
      console.log(`\n${fmt(seeds, 0)} seeds on stdin (${fmt(want, 0)} pages, ${fmt(seeds - want, 0)} 404s), ${hosts} hosts, threads ${threads}`);
      console.log(`  command        ${run.command}   (conf: ${run.confPath})`);
      console.log(`  exit ${run.exitCode}; documents ${s.documents}, 404s ${notFound}, failures ${s.failures}, pending ${s.pending ?? '?'}: ${complete ? 'complete' : 'INCOMPLETE'}`);
      console.log(`  wall           ${fmt(run.wallSeconds, 2)} s whole process → ${fmt(seeds / run.wallSeconds, 0)} seeds/s`);
      console.log(`  stats.json     CPU ${fmt(s.cpuSeconds, 2)} s; peak RSS ${s.peakRssMb} MB`);
      if (run.time) console.log(`  /usr/bin/time  CPU ${fmt(run.time.cpuSeconds, 2)} s; max RSS ${run.time.maxRssMb} MB`);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
} finally {
  await server.stop();
}
process.exitCode = ok ? 0 : 1;

/**
 * Crawl throughput of the real CLI on loopback (`npm run bench`):
 *
 *   npm run bench                                   # synthetic web, 20,000 then 100,000 pages
 *   npm run bench -- --pages 100000 [--hosts 50]    # one size
 *   npm run bench -- --hosts 20000 --pages-per-host 2 --max-per-host 2   # many hosts, few pages each
 *   npm run bench -- --site /usr/share/doc/python3.11/html [--compare-wget]
 *   npm run bench -- --site DIR --max-per-host 16 --warc --compare-wget   # both archiving (wget --warc-file)
 *   npm run bench -- --pages 20000 --cpu-prof DIR   # also write a V8 CPU profile of the crawler
 *   npm run bench -- --pages 20000 --warc           # the same crawl archived as WARC (and CDXJ)
 *   npm run bench -- --pages 5000 --render auto     # the same crawl deciding, page by page, whether to render
 *   npm run bench -- --pages 20000 --serve          # the same crawl with --serve (metrics, status, control API) on
 *   npm run bench -- --pages 20000 --frontier redis --workers 1,2,4   # the shared frontier, against in-process
 *   npm run bench -- --pages 20000 --frontier cluster --workers 2     # the same on a 3-master Redis Cluster
 *   npm run bench -- --pages 20000 --compare-crawlee DIR   # then Crawlee from DIR (npm install --prefix DIR crawlee@3.18.1)
 *
 * Each server runs in a child process of its own; the crawler is `bin/tarantula crawl` on a
 * generated Crawler.conf (threads 16, no politeness delay, every body saved, no page cap). Pages/s
 * is documents / wall seconds of the whole crawler process. Other flags: --threads N, --max-per-host N
 * (a site at that many connections only, instead of 1 and then --threads), --keep (keep
 * the work folder), --json FILE (append the results as JSON lines), --node-args "FLAGS" (for the
 * crawler's node), --set section.key=value (repeatable: a setting added to the conf). With --frontier redis, a redis-server of its own (temp dir, AOF on, as the
 * README says to run it; --frontier cluster: a 3-master Redis Cluster of its own, each node so)
 * serves each run; its command count (INFO commandstats) and CPU (INFO cpu), summed over the
 * nodes, give Redis round trips and Redis CPU per page.
 */
import { appendFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';
import { procCpuSeconds } from './proc-cpu.js';
import { runCrawler, type CrawlerRun, type CrawlSettings } from './run-crawler.js';
import { runCrawlee } from './run-crawlee.js';
import { runWget } from './run-wget.js';
import type { TimeFigures } from './timed-run.js';
import { expected, hubUrl } from './synthetic-web.js';
import type { Redis } from 'ioredis';
import { startRedisCluster } from '../test/support/redis-cluster.js';
import { startRedis } from '../test/support/redis-server.js';

const argv = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const threads = Number(value('--threads') ?? 16);
const defaultHosts = Number(value('--hosts') ?? 50);
const keep = argv.includes('--keep');
const maxPerHostFlag = value('--max-per-host');
/** With --hosts, the synthetic web's size as hosts × pages a host (a broad crawl's shape: a robots.txt per host). */
const pagesPerHost = value('--pages-per-host');
const warc = argv.includes('--warc');
/** `render` of the crawl (e.g. auto: the cost of its decision on a static site). */
const render = value('--render');
const serve = argv.includes('--serve');
const jsonFile = value('--json');
/** A broad crawl: stop after this many documents of a web far larger (`--pages 20000000 --max-page-number 100000`). */
const maxPageNumber = value('--max-page-number') === undefined ? undefined : Number(value('--max-page-number'));
const memoryBudgetMb = value('--memory-budget') === undefined ? undefined : Number(value('--memory-budget'));
const cpuProfDir = value('--cpu-prof');
/** `--set section.key=value`, repeatable: a setting added to the crawler's conf (a feature turned off). */
const sets = argv.flatMap((a, i) => (a === '--set' && argv[i + 1] !== undefined ? [argv[i + 1]!] : []));
/** Flags for the crawler's node, e.g. `--node-args "--max-semi-space-size=4"`. */
const extraNodeArgs = value('--node-args')?.split(/\s+/).filter(Boolean) ?? [];
/** `redis`: a redis-server of its own; `cluster`: a Redis Cluster of 3 masters of its own. */
const frontierKind = value('--frontier');
const sharedFrontier = frontierKind === 'redis' || frontierKind === 'cluster';
const workerCounts = (value('--workers') ?? '1').split(',').map(Number);
/** A crawl that has not finished by then is cut (and the check says INCOMPLETE): 290 s, or 10 ms a page for the largest webs. */
const timeLimitSeconds = (pages: number): number => Math.max(290, Math.ceil(pages / 100));
/**
 * Work folders are removed only after the last run: on ext4 without a journal (this machine's), each
 * file created within minutes of a mass deletion makes the inode allocator skip the recently deleted
 * inodes one by one (`recently_deleted()`), which slowed file creation 5-10× for the run after a removal.
 */
const workDirs: string[] = [];

const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** GNU time's figures of a run, as every run's report prints them. */
const timeLine = (t: TimeFigures): string => `  /usr/bin/time  CPU ${fmt(t.cpuSeconds, 2)} s (user ${fmt(t.userSeconds, 2)} + sys ${fmt(t.sysSeconds, 2)}); max RSS ${t.maxRssMb} MB`;

function machine(): string {
  const [one] = loadavg();
  return `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, node ${process.version}, load average ${fmt(one ?? 0, 2)} at start`;
}

/** Runs one crawl against a server child, charging the server's CPU separately. */
async function measure(label: string, server: ChildServer, settings: CrawlSettings, extra: Record<string, unknown>): Promise<CrawlerRun> {
  const work = await mkdtemp(join(tmpdir(), 'tarantula-bench-'));
  const serverCpu0 = procCpuSeconds(server.child.pid!);
  const nodeArgs = [...extraNodeArgs, ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfDir)}`] : [])];
  const run = await runCrawler({ ...settings, set: sets }, work, { nodeArgs });
  const serverCpu = procCpuSeconds(server.child.pid!) - serverCpu0;
  const s = run.stats;
  const requests = Object.values(s.byStatus).reduce((a, b) => a + b, 0);
  console.log(`\n${label}`);
  console.log(`  command        ${run.command}   (conf: ${run.confPath})`);
  console.log(`  exit ${run.exitCode}; documents ${s.documents}, other statuses ${JSON.stringify(s.byStatus)}, failures ${s.failures}, pending ${s.pending ?? '?'}`);
  console.log(`  wall           ${fmt(run.wallSeconds, 2)} s whole process → ${fmt(s.documents / run.wallSeconds)} pages/s (${fmt(requests / run.wallSeconds)} responses/s)`);
  console.log(`  stats.json     ${fmt(s.seconds, 2)} s crawl → ${fmt(s.pagesPerSecond)} pages/s; CPU ${fmt(s.cpuSeconds, 2)} s; peak RSS ${s.peakRssMb} MB`);
  if (run.time) console.log(`${timeLine(run.time)}; elapsed ${fmt(run.time.elapsedSeconds, 2)} s`);
  console.log(`  crawler CPU    ${fmt(((run.time?.cpuSeconds ?? s.cpuSeconds) / s.documents) * 1000, 2)} ms per page; server child CPU ${fmt(serverCpu, 2)} s`);
  if (settings.warc) {
    const dir = join(work, 'warc');
    const files = await readdir(dir);
    const sizes = await Promise.all(files.map(async (f) => (await stat(join(dir, f))).size));
    console.log(`  warc           ${files.join(', ')}: ${fmt(sizes.reduce((a, b) => a + b, 0) / 1e6)} MB`);
  }
  if (jsonFile) await appendFile(jsonFile, JSON.stringify({ label, ...extra, wallSeconds: run.wallSeconds, pagesPerSecond: s.documents / run.wallSeconds, serverCpu, stats: s, time: run.time }) + '\n');
  if (!keep) workDirs.push(work);
  else console.log(`  kept           ${work}`);
  return run;
}

/**
 * Redis's own figures: round trips (every worker sync is one EVALSHA; commandstats also counts the
 * commands a script runs, reported apart), and CPU seconds.
 */
async function redisFigures(clients: readonly Redis[]): Promise<{ roundTrips: number; commands: number; cpuSeconds: number; perNode: number[] }> {
  const figures = await Promise.all(
    clients.map(async (client) => {
      const stats = await client.info('commandstats');
      const cpu = await client.info('cpu');
      client.disconnect();
      const calls = [...stats.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].filter(([, name]) => name !== 'info' && name !== 'cluster');
      const commands = calls.reduce((n, m) => n + Number(m[2]), 0);
      const roundTrips = calls.filter(([, name]) => name === 'evalsha' || name === 'eval' || name === 'ping').reduce((n, m) => n + Number(m[2]), 0);
      const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? NaN);
      return { roundTrips, commands, cpuSeconds: field('used_cpu_user') + field('used_cpu_sys') };
    }),
  );
  const sum = (key: 'roundTrips' | 'commands' | 'cpuSeconds'): number => figures.reduce((n, f) => n + f[key], 0);
  return { roundTrips: sum('roundTrips'), commands: sum('commands'), cpuSeconds: sum('cpuSeconds'), perNode: figures.map((f) => f.cpuSeconds) };
}

/** Crawlee's CheerioCrawler on the same server, right after our run: pages/s, CPU, RSS, and the ratio. */
async function compareCrawlee(crawleeDir: string, server: ChildServer, ours: CrawlerRun, pages: number, hosts: number): Promise<boolean> {
  const want = expected({ pages, hosts });
  const work = await mkdtemp(join(tmpdir(), 'tarantula-bench-crawlee-'));
  const c = await runCrawlee(crawleeDir, hubUrl(server.port), work, threads);
  const ok = c.exitCode === 0 && c.documents === want.documents && c.notFound === want.notFound;
  const ourRate = ours.stats.documents / ours.wallSeconds;
  console.log(`\nsynthetic web: ${fmt(pages, 0)} pages, Crawlee ${threads} in flight`);
  console.log(`  command        ${c.command}`);
  console.log(`  exit ${c.exitCode}; documents ${c.documents}, 404s ${c.notFound}, failures ${c.failures}: ${ok ? 'complete' : 'INCOMPLETE'}`);
  console.log(`  wall           ${fmt(c.wallSeconds, 2)} s whole process → ${fmt(c.documents / c.wallSeconds)} pages/s; tarantula ${fmt(ourRate)} = ${fmt(ourRate / (c.documents / c.wallSeconds))}×`);
  if (c.time) console.log(timeLine(c.time));
  if (jsonFile) await appendFile(jsonFile, JSON.stringify({ label: 'crawlee', pages, ...c }) + '\n');
  if (!keep) workDirs.push(work);
  return ok;
}

/** The crawl's pages/s, for the many-hosts ratio. */
let lastRate = 0;

async function syntheticWeb(pages: number, hosts = defaultHosts, maxPerHost = Number(maxPerHostFlag ?? 1)): Promise<boolean> {
  const server = await startChildServer('synthetic-web.ts', ['--pages', String(pages), '--hosts', String(hosts)]);
  try {
    const want = expected({ pages, hosts });
    const settings: CrawlSettings = {
      seeds: [hubUrl(server.port)],
      scope: 'domain-scope', // the hub is bench.test: every hN.bench.test is a subdomain; offsite.example is not
      resolve: want.hostNames.map((h) => `${h}:${server.port}:127.0.0.1`),
      threads, maxPerHost, timeLimitSeconds: timeLimitSeconds(pages), warc, serve,
      ...(render ? { render } : {}),
      ...(maxPageNumber !== undefined ? { maxPageNumber } : {}),
      ...(memoryBudgetMb !== undefined ? { memoryBudgetMb } : {}),
    };
    const check = (run: CrawlerRun): boolean => {
      const got404 = run.stats.byStatus['404'] ?? 0;
      if (maxPageNumber !== undefined) {
        const ok = run.stats.documents === maxPageNumber;
        console.log(`  check          ${ok ? 'complete' : 'INCOMPLETE'}: ${run.stats.documents}/${maxPageNumber} documents (max-page-number)`);
        return ok;
      }
      const ok = run.stats.documents === want.documents && got404 === want.notFound;
      console.log(`  check          ${ok ? 'complete' : 'INCOMPLETE'}: ${run.stats.documents}/${want.documents} documents, ${got404}/${want.notFound} 404s`);
      return ok;
    };
    const ours = await measure(`synthetic web: ${fmt(pages, 0)} pages on ${fmt(hosts, 0)} hosts (+ hub)${maxPageNumber !== undefined ? `, max-page-number ${maxPageNumber}` : ''}${memoryBudgetMb !== undefined ? `, memory-budget ${memoryBudgetMb}` : ''}, threads ${threads}, max-per-host ${maxPerHost}${warc ? ', --warc' : ''}${serve ? ', --serve' : ''}`, server, settings, { pages, hosts, threads, warc, serve });
    let ok = check(ours);
    lastRate = ours.stats.documents / ours.wallSeconds;
    const crawleeDir = value('--compare-crawlee');
    if (crawleeDir !== undefined) ok = (await compareCrawlee(resolve(crawleeDir), server, ours, pages, hosts)) && ok;
    if (!sharedFrontier) return ok;
    for (const workers of workerCounts) {
      const redis = frontierKind === 'cluster' ? await startRedisCluster(3) : await startRedis();
      try {
        const cluster = 'ports' in redis;
        const label = `synthetic web: ${fmt(pages, 0)} pages on ${hosts} hosts (+ hub), shared frontier on ${cluster ? 'a 3-master Redis Cluster' : 'Redis'}, ${workers} worker(s) × threads ${threads}`;
        const url = cluster ? redis.url(0) : redis.url;
        const run = await measure(label, server, { ...settings, frontier: url, workers }, { pages, hosts, threads, workers, frontier: frontierKind });
        const r = await redisFigures(cluster ? redis.ports.map((_, i) => redis.node(i)) : [redis.client()]);
        const perPage = (n: number): string => fmt(n / run.stats.documents, 3);
        const µs = (seconds: number): string => fmt((seconds / run.stats.documents) * 1e6, 0);
        console.log(`  redis          ${perPage(r.roundTrips)} round trips per page (${r.roundTrips}), ${perPage(r.commands)} commands per page inside them; Redis CPU ${fmt(r.cpuSeconds, 2)} s = ${µs(r.cpuSeconds)} µs per page${cluster ? ` (per node ${r.perNode.map(µs).join(' · ')} µs)` : ''}`);
        ok = check(run) && ok;
      } finally {
        await redis.close();
      }
    }
    return ok;
  } finally {
    await server.stop();
  }
}

async function staticSite(dir: string): Promise<boolean> {
  const server = await startChildServer('static-site.ts', [dir]);
  try {
    const seed = `http://127.0.0.1:${server.port}/`;
    let ok = true;
    let ourRate = 0;
    for (const maxPerHost of maxPerHostFlag !== undefined ? [Number(maxPerHostFlag)] : [1, threads]) {
      const settings: CrawlSettings = { seeds: [seed], scope: 'host-scope', resolve: [], threads, maxPerHost, timeLimitSeconds: timeLimitSeconds(0), warc };
      const run = await measure(`site ${dir}: tarantula, threads ${threads}, max-per-host ${maxPerHost}${warc ? ', --warc' : ''}`, server, settings, { site: dir, maxPerHost, warc });
      ok &&= run.exitCode === 0;
      ourRate = run.stats.documents / run.wallSeconds;
    }
    if (argv.includes('--compare-wget')) {
      const work = await mkdtemp(join(tmpdir(), 'tarantula-bench-wget-'));
      const w = await runWget(seed, join(work, 'mirror'), warc ? { warcFile: join(work, 'wget') } : {});
      console.log(`\nsite ${dir}: wget (one connection)${warc ? ', --warc-file' : ''}`);
      console.log(`  command        ${w.command}`);
      console.log(`  exit ${w.exitCode} (8 = some 404s); ${w.files} files saved, ${fmt(w.bytes / 1e6)} MB`);
      if (warc) {
        const files = (await readdir(work)).filter((f) => f.startsWith('wget.'));
        const sizes = await Promise.all(files.map(async (f) => (await stat(join(work, f))).size));
        console.log(`  warc           ${files.join(', ')}: ${fmt(sizes.reduce((a, b) => a + b, 0) / 1e6)} MB`);
      }
      console.log(`  wall           ${fmt(w.wallSeconds, 2)} s → ${fmt(w.files / w.wallSeconds)} files/s; tarantula ${fmt(ourRate)} pages/s = ${fmt(ourRate / (w.files / w.wallSeconds), 2)}×`);
      if (w.time) console.log(timeLine(w.time));
      if (jsonFile) await appendFile(jsonFile, JSON.stringify({ label: 'wget', site: dir, ...w }) + '\n');
      if (!keep) workDirs.push(work);
    }
    return ok;
  } finally {
    await server.stop();
  }
}

console.log(`machine: ${machine()}`);
const site = value('--site');
let ok = true;
try {
  if (site !== undefined) ok = await staticSite(resolve(site));
  else if (pagesPerHost !== undefined) {
    // The broad crawl, then the one-host-shaped crawl (20,000 pages on 50 hosts, one connection each) right after it.
    ok = await syntheticWeb(defaultHosts * Number(pagesPerHost));
    const manyHosts = lastRate;
    ok = (await syntheticWeb(20_000, 50, 1)) && ok;
    console.log(`\nmany hosts: ${fmt(manyHosts)} pages/s = ${fmt(manyHosts / lastRate, 2)}× the 20,000-page synthetic crawl's ${fmt(lastRate)} pages/s`);
  }
  else for (const pages of value('--pages') ? [Number(value('--pages'))] : [20_000, 100_000]) ok = (await syntheticWeb(pages)) && ok;
} finally {
  for (const dir of workDirs) await rm(dir, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;

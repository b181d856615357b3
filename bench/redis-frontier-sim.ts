/**
 * The shared frontier at scale, without a network (`npx tsx bench/redis-frontier-sim.ts [--hosts 5000]
 * [--pages-per-host 20] [--workers 8] [--threads 16] [--latency 100] [--delay 0] [--seconds 20]
 * [--cluster 3] [--levels 4] [--visits]`): simulated workers, each the real crawl loop (`crawl()`) over the real
 * {@link SharedFrontier} and its sync script, on a redis-server of its own or (`--cluster N`) on a
 * Redis Cluster of N masters started on loopback, connected and sharded as a worker does; a "fetch"
 * is a timer of `latency` ms, on a web of `hosts` × `pages-per-host` pages (page K links K·2+1 and
 * K·2+2 of its host and page K of two other hosts, so that most links are duplicates). With `--levels K`
 * (priority-levels; default 1) each worker counts in-links and gives levels as a crawl does (default
 * prioritizer: the seed on top, most pages on level 1), and lets a URL found again through when its
 * level rose. Prints pages/s,
 * syncs/s (round trips), leases/s, Redis CPU per sync and per page (used_cpu_sys + used_cpu_user of
 * each redis-server, from INFO before and after, less what it uses idle over 3 s before), per node,
 * and the pages/s at which the busiest node would be saturated. `--visits`: as in a recrawl, each page's
 * visit is written to the crawl's recrawl schedule when it ends and read when its request is taken.
 */
import { identity, map, mergeMap, of, tap, timer } from 'rxjs';
import { Redis } from 'ioredis';
import { connectFrontier, type FrontierRedis } from '../src/distributed/connect-frontier.js';
import { openCrawlShards } from '../src/distributed/crawl-shards.js';
import { RecrawlVisits } from '../src/distributed/recrawl-visits.js';
import { SharedFrontier } from '../src/distributed/shared-frontier.js';
import { crawl } from '../src/engine/crawl.js';
import { inLinkCounts } from '../src/frontier/in-link-counts.js';
import { defaultPrioritizer } from '../src/frontier/prioritizer.js';
import { prioritize, requestLevelRose } from '../src/stages/prioritize.js';
import type { Outcome } from '../src/model/outcome.js';
import { endOf } from '../src/model/request-end.js';
import type { Candidate, CrawlRequest } from '../src/model/crawl-request.js';
import { startRedisCluster } from '../test/support/redis-cluster.js';
import { startRedis } from '../test/support/redis-server.js';

const argv = process.argv.slice(2);
const num = (name: string, fallback: number): number => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const hosts = num('--hosts', 5000);
const perHost = num('--pages-per-host', 20);
const workers = num('--workers', 8);
const threads = num('--threads', 16);
const latencyMs = num('--latency', 100);
const delayMs = num('--delay', 0);
const seconds = num('--seconds', 20);
const masters = num('--cluster', 0);
const levels = num('--levels', 1);
const withVisits = argv.includes('--visits');

const server = masters > 0 ? await startRedisCluster(masters) : await startRedis();
const url = 'url' in server && typeof server.url === 'string' ? server.url : (server as Awaited<ReturnType<typeof startRedisCluster>>).url(1);
const ports = 'ports' in server ? server.ports : [server.port];
const admins = ports.map((port) => new Redis({ port, host: '127.0.0.1' }));
/** Seconds of CPU each redis-server has used. */
const redisCpu = (): Promise<number[]> =>
  Promise.all(
    admins.map(async (admin) => {
      const info = await admin.info('cpu');
      return Number(/^used_cpu_user:([\d.]+)/m.exec(info)![1]) + Number(/^used_cpu_sys:([\d.]+)/m.exec(info)![1]);
    }),
  );

const hostName = (h: number): string => `h${h}.sim.test`;
const page = (h: number, k: number): string => `http://${hostName(h)}/${k}`;
function linksOf(req: CrawlRequest): Candidate[] {
  const [, hs, ks] = /^http:\/\/h(\d+)\.sim\.test\/(\d+)$/.exec(req.url)!;
  const h = Number(hs);
  const k = Number(ks);
  const urls = [2 * k + 1, 2 * k + 2].filter((n) => n < perHost).map((n) => page(h, n));
  urls.push(page((h + 1) % hosts, k), page((h * 7 + k + 3) % hosts, k));
  return urls.map((href) => ({ href, url: href, depth: req.depth + 1 }));
}
/** What a page's visit is made of, as a fetched page's record has it (`--visits`). */
const recordOf = (req: CrawlRequest) => {
  const now = Date.now();
  return {
    url: req.url, etag: '"5f3a-9c1b"', lastModified: 'Tue, 01 Dec 2026 09:00:00 GMT', serverDate: null, contentMd5: '0cc175b9c0f1b6a831c399e269772661',
    fetchedAt: new Date(now).toISOString(), fetchIntervalHours: 108, nextFetch: new Date(now + 108 * 3_600_000).toISOString(),
  };
};
const request = (url: string, depth: number): CrawlRequest => ({ url, host: new URL(url).host, depth, originalUrl: url, redirects: 0, attempt: 0 });

let pages = 0;
const frontiers: SharedFrontier[] = [];
const connections: FrontierRedis[] = [];
// Connected and sharded as a worker is, before the clock starts.
const connected = await Promise.all(Array.from({ length: workers }, () => connectFrontier(url)));
const shards = await openCrawlShards(connected[0]!, 'sim');
// What the servers use doing nothing (a cluster's nodes gossip and check each other): taken off below.
const idle0 = await redisCpu();
await new Promise((r) => setTimeout(r, 3000));
const idlePerSecond = (await redisCpu()).map((c, i) => (c - idle0[i]!) / 3);
const stop = timer(seconds * 1000);
const cpu0 = await redisCpu();
const t0 = performance.now();
const runs = connected.map(({ redis }, w) => {
  connections.push(redis);
  const frontier = new SharedFrontier({
    redis, shards, worker: `sim#${w}`, order: 'bfs', levels, maxPerHost: 1, politeness: { delayMs: () => delayMs },
    requestsInFlight: threads, leaseMs: 60_000, maxPagesPerHost: 0, maxPages: 0, reapDelayMs: 0, durable: async () => undefined, canonical: (u) => u, onError: (err) => console.error(`worker ${w}: ${err.message}`),
    ...(withVisits ? { visits: new RecrawlVisits(redis, shards, (u) => u), loadVisits: true } : {}),
  });
  frontiers.push(frontier);
  const seen = new Set<string>();
  const counts = inLinkCounts();
  const priority = { levels, inLinks: (url: string) => counts.get(url) };
  const rose = requestLevelRose(defaultPrioritizer, priority);
  return new Promise<void>((done, fail) =>
    crawl<Outcome>({
      // Every worker seeds the crawl, as real workers do: Redis keeps one copy.
      seeds: of({ href: page(0, 0), url: page(0, 0), depth: 0, seed: true }),
      // The local seen-set of a worker: a cache in front of Redis's.
      admit: (c$) =>
        c$.pipe(
          levels > 1 ? tap((c) => counts.add(c.url!)) : identity,
          mergeMap((c) => {
            const req = request(c.url!, c.depth);
            if (!seen.has(req.url)) return (seen.add(req.url), [req]);
            return levels > 1 && rose(req) ? [{ ...req, again: true }] : [];
          }),
          levels > 1 ? prioritize(defaultPrioritizer, priority) : identity,
        ),
      unit: () => (r$) =>
        r$.pipe(
          mergeMap((req) => timer(latencyMs).pipe(map(() => req))),
          map((req): Outcome => ({ kind: 'document', req, links: linksOf(req), record: recordOf(req) }) as unknown as Outcome),
          map((out) => (pages++, out)),
        ),
      end: endOf,
      links: (out) => (out as unknown as { links: Candidate[] }).links,
      frontier,
      concurrency: threads,
      stop,
    }).subscribe({ complete: () => void frontier.close().then(done, fail), error: fail }),
  );
});

await Promise.all(runs);
const wall = (performance.now() - t0) / 1000;
const perNode = (await redisCpu()).map((c, i) => Math.max(0, c - cpu0[i]! - idlePerSecond[i]! * wall));
const cpu = perNode.reduce((a, b) => a + b, 0);
const busiest = Math.max(...perNode);
const syncs = frontiers.reduce((n, f) => n + f.syncs, 0);
const calls = frontiers.reduce((n, f) => n + f.roundTrips, 0);
const leases = frontiers.reduce((n, f) => n + f.leases, 0);
const fmt = (n: number, d = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const where = masters > 0 ? `a ${masters}-master cluster` : 'one standalone Redis';
console.log(`simulated on ${where}${withVisits ? ', visits written and read' : ''}: ${hosts} hosts × ${perHost} pages, ${workers} workers × ${threads} threads, fetch ${latencyMs} ms, delay ${delayMs} ms, ${levels} priority levels, ${fmt(wall, 1)} s`);
console.log(`  pages          ${pages} → ${fmt(pages / wall)} pages/s (ceiling of the workers: ${fmt((workers * threads * 1000) / latencyMs)})`);
console.log(`  syncs          ${syncs} → ${fmt(syncs / wall)}/s, ${fmt(syncs / pages, 3)} per page; script calls ${calls}, ${fmt(calls / pages, 3)} per page; leases ${leases} → ${fmt(leases / wall)}/s`);
console.log(`  redis CPU      ${fmt(cpu, 2)} s = ${fmt((cpu / wall) * 100)} % of a core; ${fmt((cpu / calls) * 1e6, 0)} µs per script call, ${fmt((cpu / pages) * 1e6, 0)} µs per page`);
console.log(`  idle servers   ${idlePerSecond.map((c) => `${fmt(c * 100, 2)} %`).join(' · ')} of a core each (taken off the figures above and below)`);
if (masters > 0) console.log(`  per node       ${perNode.map((c) => `${fmt((c / pages) * 1e6, 0)} µs (${fmt((c / wall) * 100)} %)`).join(' · ')} per page`);
console.log(`  the busiest Redis core saturates near ${fmt(pages / busiest, 0)} pages/s at this shape (${fmt(calls / cpu, 0)} script calls/s a core)`);
for (const c of connections) c.disconnect();
for (const admin of admins) admin.disconnect();
await server.close();

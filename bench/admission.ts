/**
 * The main thread's admission path alone, without fetching or parsing: each "page" of the synthetic
 * web (bench/synthetic-web.ts) pulls one request from the frontier and admits that page's links as
 * the document worker hands them back (resolved, normalized, in scope), through `defaultAdmit` into
 * the frontier, with the crawl's seen-sets, journal, robots.txt cache (one `Allow: /` robots.txt a
 * host, from a loopback server) and memory budget. `--web-pages` is the size of the web: 20,000,000
 * for the broad crawl's shape (nearly every link leads to a page not seen yet), 20,000 for the
 * 20,000-page crawl's. Prints the process's CPU a page and an admitted URL; `--compare` runs both
 * shapes, 100,000 pages of the broad web, then the 20,000-page web whole.
 *
 *   npx tsx bench/admission.ts [--compare] [--web-pages 20000000] [--pages 100000] [--memory-budget 64]
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { from, toArray } from 'rxjs';
import { DEFAULT_CONFIG } from '../src/config/keys.js';
import { createCrawlContext, startedSet } from '../src/engine/crawl-context.js';
import { defaultAdmit } from '../src/engine/default-spec.js';
import { memoryShares } from '../src/frontier/memory-budget.js';
import { spillingSeenSet } from '../src/frontier/seen-set.js';
import type { CrawlLogger } from '../src/log/create-logger.js';
import type { Candidate, CrawlRequest } from '../src/model/crawl-request.js';
import { openCrawlState } from '../src/state/crawl-state.js';
import { withoutSessionIds } from '../src/url/query-params.js';
import { DOMAIN, hubUrl, OFFSITE, pageLinks, type SyntheticWeb } from './synthetic-web.js';

const value = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const budgetMb = value('--memory-budget', 64);
const shapes = process.argv.includes('--compare')
  ? [{ web: 20_000_000, pages: 100_000 }, { web: 20_000, pages: 20_000 }]
  : [{ web: value('--web-pages', 20_000_000), pages: value('--pages', 100_000) }];
const HOSTS = 50;
const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const server = createServer((req, res) => {
  res.writeHead(req.url === '/robots.txt' ? 200 : 404, { 'content-type': 'text/plain' });
  res.end(req.url === '/robots.txt' ? 'User-agent: *\nAllow: /\n' : '');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;
const log = pino({ level: 'silent', customLevels: { page: 25 } }) as unknown as CrawlLogger;

/** Page i's links as the document worker gives them: absolute and normalized, the fragment dropped, the offsite one out of scope. */
function linksOf(i: number, web: SyntheticWeb, depth: number): Candidate[] {
  const base = `http://h${i % HOSTS}.${DOMAIN}:${port}/p/`;
  const out: Candidate[] = [];
  for (const [href] of pageLinks(i, web)) {
    if (href.includes(OFFSITE)) continue;
    const url = href === '#main' ? `${base}${i}.html` : href.startsWith('http') ? href : href.startsWith('/') ? `http://h${i % HOSTS}.${DOMAIN}:${port}${href}` : base + href;
    out.push({ href: url, url, vetted: true, base: `${base}${i}.html`, depth });
  }
  return out;
}

async function run(webPages: number, pages: number): Promise<void> {
  const repository = mkdtempSync(join(tmpdir(), 'tarantula-bench-admission-'));
  const web: SyntheticWeb = { pages: webPages, hosts: HOSTS, port };
  const hostNames = [DOMAIN, ...Array.from({ length: HOSTS }, (_, h) => `h${h}.${DOMAIN}`)];
  const config = {
    ...DEFAULT_CONFIG, startingPoints: [hubUrl(port)], repository, allowPrivateAddresses: true, memoryBudgetMb: budgetMb,
    minDelayMs: 0, maxDelayMs: 0, delayFactor: 0, maxPerHost: 1,
    resolve: hostNames.map((host) => ({ host, port, address: '127.0.0.1' })),
  };
  const { seenBytes } = memoryShares(budgetMb);
  const started = startedSet(config, { dir: join(repository, 'started'), budgetBytes: seenBytes / 4 });
  const seen = spillingSeenSet({ dir: join(repository, 'seen'), budgetBytes: seenBytes - seenBytes / 4, canonical: withoutSessionIds });
  const ctx = createCrawlContext(config, log, seen, await openCrawlState(repository, seen, started), { started });
  for (const host of hostNames) await ctx.hosts.robots.get(`http://${host}:${port}`);
  const admit = defaultAdmit(ctx);
  let admitted = 0;
  const admitAll = (links: Candidate[]): void => {
    from(links).pipe(admit, toArray()).subscribe((reqs) => {
      ctx.frontier.pushAll(reqs as CrawlRequest[]);
      admitted += reqs.length;
    });
  };
  // The hub's links, as the crawl's first page.
  admitAll(Array.from({ length: HOSTS }, (_, i) => ({ href: `http://h${i}.${DOMAIN}:${port}/p/${i}.html`, url: `http://h${i}.${DOMAIN}:${port}/p/${i}.html`, vetted: true, base: hubUrl(port), depth: 1 })));
  const cpu = process.cpuUsage();
  const wall = performance.now();
  let done = 0;
  while (done < pages) {
    const req = ctx.frontier.pull(0);
    if (req === undefined) break;
    ctx.frontier.release(req, 0);
    const page = /\/p\/(\d+)\.html$/.exec(req.url);
    if (page === null) continue; // a 404
    admitAll(linksOf(Number(page[1]), web, req.depth + 1));
    // The journal's batches go out on the event loop, as in a crawl.
    if (++done % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await ctx.state.journal.flush();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - wall) / 1000;
  const cpuSeconds = (used.user + used.system) / 1e6;
  console.log(`${done} pages of a ${webPages}-page web: ${fmt(done / seconds, 0)} pages/s; CPU ${fmt(cpuSeconds, 2)} s = ${fmt((cpuSeconds / done) * 1e6, 1)} µs a page, ${admitted} URLs admitted (${fmt(admitted / done, 2)} a page), ${ctx.frontier.size} pending, seen runs ${seen.runs}`);
  await ctx.state.journal.close();
  await ctx.close();
  await Promise.all([seen.close(), started?.close()]);
  rmSync(repository, { recursive: true, force: true });
}

console.log(`machine: load average ${fmt(loadavg()[0] ?? 0, 2)}, node ${process.version}, memory-budget ${budgetMb}`);
for (const { web, pages } of shapes) await run(web, pages);
server.close();

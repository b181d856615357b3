import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, readStats, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { checkWarc, warcFiles } from './support/warc-files.js';
import { fetchedByWorker } from './support/worker-journals.js';

/** Each test crawls hosts of its own: `NAME-0.test` … */
const hostsOf = (name: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${name}-${i}.test`);
const SITES = { cap: hostsOf('cap', 8), map: hostsOf('map', 2), warc: hostsOf('warc', 4) };
type Site = keyof typeof SITES;
const PAGES: Record<Site, number> = { cap: 10_000, map: 10, warc: 20 };
const CAP = 7;
/**
 * Page K of a cap host links pages 2K+1 and 2K+2 of its own host and page CROSS+K of the next: the
 * worker crawling one host finds URLs of the next host that the worker crawling that one does not,
 * so that a limit each worker kept for itself would let a host through up to twice. 8 hosts: a
 * worker with one thread leases 3 at a time, so both workers crawl when all are seeds.
 */
const CROSS = 1000;
const CAP_DELAY_MS = 50;
/** map-0.test's robots.txt names this sitemap; it lists /hidden, which no page links to. */
const SITEMAP = '/pages-map.xml';

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  const grids = (['map', 'warc'] as const).map((name) => gridPages(SITES[name], PAGES[name], 5));
  const xml = (port: number | undefined, path: string) =>
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://map-0.test:${port}${path}</loc></url></urlset>`;
  web = await startWeb('grid', {
    root: HOSTILE_ROOT,
    hooks: {
      handle: (req, res, at) => {
        if (at.host === 'map-0.test') {
          const port = req.socket.localPort;
          const answers: Record<string, [string, string]> = {
            '/robots.txt': ['text/plain', `User-agent: *\nSitemap: ${SITEMAP}\n`],
            [SITEMAP]: ['application/xml', xml(port, '/hidden')],
            // Only asked for with `sitemaps guess`: what it lists would then be crawled too.
            '/sitemap.xml': ['application/xml', xml(port, '/guessed')],
            '/hidden': ['text/html', '<!DOCTYPE html><title>hidden</title>'],
            '/guessed': ['text/html', '<!DOCTYPE html><title>guessed</title>'],
          };
          const answer = answers[at.path];
          if (answer !== undefined) return res.writeHead(200, { 'Content-Type': answer[0] }).end(answer[1]), true;
        }
        const cap = SITES.cap.indexOf(at.host);
        if (cap >= 0) return answerCapPage(req.socket.localPort!, SITES.cap[(cap + 1) % SITES.cap.length]!, at.path, res), true;
        return grids.some((hooks) => hooks.handle!(req, res, at));
      },
    },
    extraHosts: Object.values(SITES).flat(),
  });
  redis = await startRedis();
  tmp = await tempDir();
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

/** Page K of a cap host, answered after CAP_DELAY_MS so that both workers are at work at once. */
function answerCapPage(port: number, other: string, path: string, res: ServerResponse): void {
  const k = Number(/^\/(\d+)$/.exec(path)?.[1] ?? NaN);
  if (!(k >= 0 && k < PAGES.cap)) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
  const links = [`/${2 * k + 1}`, `/${2 * k + 2}`, `http://${other}:${port}/${CROSS + k}`].map((href) => `<a href="${href}">${href}</a>`);
  const body = `<!DOCTYPE html>\n<title>${k}</title><body>${links.join(' ')}</body>\n`;
  const timer = setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end(body), CAP_DELAY_MS);
  res.on('close', () => clearTimeout(timer));
}

/** `tarantula crawl` of one site over 2 workers sharing a frontier; its requests are told apart by the user agent. */
function crawl(name: Site, flags: readonly string[]) {
  const args = [
    'crawl', ...NO_DELAYS, '--seed', web.url(SITES[name][0]!, '/0'), '--scope', 'free-spanning', '--repository', join(tmp.dir, name),
    '--frontier', redis.url, '--workers', '2', '--threads', '1', '--crawl-id', name, '--user-agent', `tarantula/features-${name}`,
    '--log-level', '0', ...web.resolve(), ...flags,
  ];
  return runCli(args, { cwd: tmp.dir });
}

const requestsOf = (name: Site) => web.server.requests.filter((r) => r.headers['user-agent'] === `tarantula/features-${name}`);
const pagesOf = (name: Site): string[] => SITES[name].flatMap((h) => Array.from({ length: PAGES[name] }, (_, k) => web.url(h, `/${k}`))).sort();
const countOf = (urls: readonly string[]): Map<string, number> => urls.reduce((m, u) => m.set(u, (m.get(u) ?? 0) + 1), new Map<string, number>());

async function indexUrls(name: string): Promise<string[]> {
  return parseSeedIndex(await readFile(join(tmp.dir, name, 'index.txt'), 'utf8')).map((r) => r.url).sort();
}

// One test at a time: each runs three processes of its own, on a machine with two cores.
describe('in-process features in a crawl shared by 2 workers, on a real redis-server', { timeout: 60_000 }, () => {
  it('holds max-pages-per-host across workers: each host gets exactly N documents, no more', async () => {
    // Every host a seed, so that both workers have hosts to lease from the start.
    const seeds = SITES.cap.slice(1).flatMap((h) => ['--seed', web.url(h, '/0')]);
    const run = await crawl('cap', [...NO_SITEMAPS, ...seeds, '--max-pages-per-host', String(CAP)]);
    expect(run.code, run.stderr).toBe(0);
    const fetched = requestsOf('cap').filter((r) => r.path !== '/robots.txt').map((r) => r.host);
    const indexed = (await indexUrls('cap')).map((u) => new URL(u).hostname);
    for (const host of SITES.cap) {
      expect(fetched.filter((h) => h === host), `${host} fetched`).toHaveLength(CAP);
      expect(indexed.filter((h) => h === host), `${host} indexed`).toHaveLength(CAP);
    }
    expect(await readStats(join(tmp.dir, 'cap'))).toMatchObject({ documents: CAP * SITES.cap.length, completed: true });
    // Both workers crawled, so each found URLs of the host the other crawled: the limit held across them.
    for (const part of await fetchedByWorker(join(tmp.dir, 'cap'))) expect(part.length).toBeGreaterThan(0);
  });

  it("reads robots.txt's Sitemap: line once: the page only it lists is fetched once; /sitemap.xml is not guessed", async () => {
    const run = await crawl('map', ['--sitemaps', 'true']);
    expect(run.code, run.stderr).toBe(0);
    const asked = countOf(requestsOf('map').map((r) => web.url(r.host, r.path)));
    expect(asked.get(web.url('map-0.test', SITEMAP))).toBe(1);
    expect(asked.get(web.url('map-0.test', '/hidden'))).toBe(1);
    for (const host of SITES.map) expect(asked.get(web.url(host, '/sitemap.xml')), host).toBeUndefined();
    expect(asked.get(web.url('map-0.test', '/guessed'))).toBeUndefined();
    expect(await indexUrls('map')).toEqual([...pagesOf('map'), web.url('map-0.test', '/hidden')].sort());
  });

  it('archives each worker into a WARC series of its own: every page has one response record, and merge gives one CDXJ', async () => {
    const prefix = join(tmp.dir, 'warc', 'archive', 'crawl');
    const seeds = SITES.warc.slice(1).flatMap((h) => ['--seed', web.url(h, '/0')]);
    const run = await crawl('warc', [...NO_SITEMAPS, ...seeds, '--warc', prefix]);
    expect(run.code, run.stderr).toBe(0);
    const files = await warcFiles(join(tmp.dir, 'warc', 'archive'), 'crawl');
    const responses: string[] = [];
    for (const worker of [0, 1]) {
      let mine = 0;
      for (const file of files.filter((f) => f.includes(`/crawl-${worker}-`))) {
        const records = await checkWarc(file, (ok, what) => expect(ok, what).toBe(true));
        const uris = records.filter((r) => r.type === 'response').map((r) => r.header('WARC-Target-URI')!);
        responses.push(...uris);
        mine += uris.length;
      }
      expect(mine, `responses in worker ${worker}'s files`).toBeGreaterThan(0);
    }
    expect(files.every((f) => /\/crawl-[01]-\d{5}\.warc\.gz$/.test(f)), files.join(' ')).toBe(true);
    const pages = responses.filter((u) => !u.endsWith('/robots.txt')).sort();
    expect(pages).toEqual(pagesOf('warc'));

    const merged = await runCli(['merge', join(tmp.dir, 'warc-all'), join(tmp.dir, 'warc')], { cwd: tmp.dir });
    expect(merged.code, merged.stderr).toBe(0);
    const lines = (await readFile(join(tmp.dir, 'warc-all', 'index.cdxj'), 'utf8')).split('\n').filter((l) => l !== '');
    const cdxjUrls = lines.map((l) => (JSON.parse(l.slice(l.indexOf('{'))) as { url: string }).url).filter((u) => !u.endsWith('/robots.txt'));
    expect(cdxjUrls.sort()).toEqual(pagesOf('warc'));
  });
});

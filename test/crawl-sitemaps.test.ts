import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { readStats } from './support/e2e-web.js';
import { makeTreeSite, writePage } from './support/make-site.js';
import { resolveFlags, runCli, type CliResult } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOST = 'www.maps.test';
const BARE = 'bare.maps.test';
/** A tree of 7 pages whose robots.txt names no sitemap. */
const PLAIN = 'plain.maps.test';
const MIN_DELAY = 150;
/** The server's clock marks the arrival of a request a little after the crawler sent it. */
const SLACK_MS = 15;

let tmp: Awaited<ReturnType<typeof tempDir>>;
let server: FixtureServer;
let run: CliResult;
let repo: string;
const origin = () => `http://${HOST}:${server.port}`;
const hostRequests = (host: string) => server.requests.filter((r) => r.host === host);

/**
 * www.maps.test links only to bare.maps.test; its pages are reachable only through its sitemaps:
 * robots.txt names a gzip sitemap index (served as application/octet-stream, no Content-Encoding),
 * which nests a urlset and a text sitemap, and an index chain four levels deep.
 */
beforeAll(async () => {
  tmp = await tempDir();
  const web = join(tmp.dir, 'web');
  await writePage(web, HOST, 'index.html', `<!doctype html><title>home</title><a href="http://${BARE}/">bare</a>`);
  for (const p of ['a', 'b', 'c', 'deep', 'private/x']) await writePage(web, HOST, `${p}.html`, `<!doctype html><title>${p}</title>`);
  await writePage(web, HOST, 'robots.txt', 'User-agent: *\nDisallow: /private/\nSitemap: /maps/index.xml.gz\n');
  await writePage(web, BARE, 'index.html', '<!doctype html><title>bare</title>');
  await makeTreeSite(web, [PLAIN], 7);
  await writePage(web, PLAIN, 'robots.txt', 'User-agent: *\nDisallow: /private/\n');
  const port = () => server.port;
  const files: Record<string, () => Buffer> = {
    '/maps/index.xml.gz': () => gzipSync(`<sitemapindex><sitemap><loc>http://${HOST}:${port()}/maps/pages.xml</loc></sitemap><sitemap><loc>http://${HOST}:${port()}/maps/more.txt</loc></sitemap><sitemap><loc>http://${HOST}:${port()}/maps/level1.xml</loc></sitemap></sitemapindex>`),
    '/maps/pages.xml': () => Buffer.from(`\ufeff<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${HOST}:${port()}/a.html</loc><lastmod>2026-11-30</lastmod></url><url><loc>http://${HOST}:${port()}/private/x.html</loc></url><url><loc>http://elsewhere.test/out.html</loc></url></urlset>`),
    '/maps/more.txt': () => Buffer.from(`http://${HOST}:${port()}/b.html\nhttp://${HOST}:${port()}/a.html\n`),
    '/maps/level1.xml': () => Buffer.from(`<sitemapindex><sitemap><loc>http://${HOST}:${port()}/maps/level2.xml</loc></sitemap></sitemapindex>`),
    '/maps/level2.xml': () => Buffer.from(`<sitemapindex><sitemap><loc>http://${HOST}:${port()}/maps/level3.xml</loc></sitemap></sitemapindex>`),
    '/maps/level3.xml': () => Buffer.from(`<urlset><url><loc>http://${HOST}:${port()}/c.html</loc></url></urlset><!-- read: three levels down --><sitemapindex><sitemap><loc>http://${HOST}:${port()}/maps/level4.xml</loc></sitemap></sitemapindex>`),
    '/maps/level4.xml': () => Buffer.from(`<urlset><url><loc>http://${HOST}:${port()}/deep.html</loc></url></urlset>`),
  };
  server = await startFixtureServer({
    root: web,
    hooks: {
      handle: (_req, res, { host, path }) => {
        const file = host === HOST ? files[path] : undefined;
        if (file === undefined) return false;
        res.writeHead(200, { 'content-type': path.endsWith('.gz') ? 'application/octet-stream' : path.endsWith('.txt') ? 'text/plain' : 'application/xml' }).end(file());
        return true;
      },
    },
  });
  repo = join(tmp.dir, 'repo');
  run = await runCli(
    ['crawl', '--seed', `${origin()}/`, ...resolveFlags([HOST, BARE, 'elsewhere.test'], server.port), '--repository', repo, '--threads', '4',
      '--delay-factor', '0', '--min-delay', String(MIN_DELAY), '--max-delay', String(MIN_DELAY), '--index', join(tmp.dir, 'index.jsonl'), '--format', 'jsonl'],
    { cwd: tmp.dir, timeoutMs: 90_000 },
  );
});
afterAll(async () => {
  await server?.close();
  await tmp?.remove();
});

const records = async () => (await readFile(join(tmp.dir, 'index.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { url: string; sitemapLastmod?: string; depth: number });
const paths = (host: string) => hostRequests(host).map((r) => r.path);

describe('sitemaps', () => {
  it('reads robots.txt Sitemap: lines: a gzip index (by its magic bytes), a urlset, a text sitemap; their URLs are crawled', async () => {
    expect(run.code, run.stderr).toBe(0);
    const urls = (await records()).map((r) => r.url);
    for (const p of ['/a.html', '/b.html', '/c.html']) expect(urls).toContain(`${origin()}${p}`);
  });

  it('puts a sitemap lastmod into the jsonl record as sitemapLastmod, at the sitemap depth + 1', async () => {
    const a = (await records()).find((r) => r.url === `${origin()}/a.html`)!;
    expect(a.sitemapLastmod).toBe('2026-11-30');
    expect(a.depth).toBe(1);
  });

  it('sends sitemap URLs through the filters like links: robots.txt, scope and the seen-set', () => {
    expect(paths(HOST)).not.toContain('/private/x.html');
    expect(hostRequests('elsewhere.test')).toEqual([]);
    expect(paths(HOST).filter((p) => p === '/a.html')).toHaveLength(1);
  });

  it('follows sitemap indexes three levels deep, not four', () => {
    expect(paths(HOST)).toContain('/maps/level3.xml');
    expect(paths(HOST)).not.toContain('/maps/level4.xml');
    expect(paths(HOST)).not.toContain('/deep.html');
  });

  it('does not index or mirror a sitemap', async () => {
    const urls = (await records()).map((r) => r.url);
    expect(urls.filter((u) => u.includes('/maps/') || u.endsWith('sitemap.xml'))).toEqual([]);
    await expect(readFile(join(repo, `${HOST}+${server.port}`, 'maps', 'pages.xml'))).rejects.toThrow();
  });

  it('does not guess /sitemap.xml by default: only the sitemaps robots.txt names are requested', async () => {
    expect(paths(HOST).filter((p) => p === '/sitemap.xml')).toEqual([]);
    expect(paths(BARE)).toEqual(['/robots.txt', '/']);
    const stats = await readStats(repo);
    expect(stats.failures).toBe(0);
    // index, pages, more, level1-3 read; 3 + 2 + 1 URLs listed
    expect(stats['sitemaps']).toEqual({ read: 6, missing: 0, urls: 6 });
  });

  it('fetches sitemaps through the frontier, with the politeness delay of their host', () => {
    const seen = hostRequests(HOST);
    // From start to start: on a loaded machine the server notes the end of a response tens of ms after the
    // crawler has read it (its 'finish' callback waits for the CPU), which would make an end-to-start gap look short.
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.start - seen[i - 1]!.start, `${seen[i - 1]!.path} → ${seen[i]!.path}`).toBeGreaterThanOrEqual(MIN_DELAY - SLACK_MS);
  });
});

describe('sitemaps = guess', () => {
  it('asks each host in scope for /sitemap.xml once; a 404 costs that request and no warning', async () => {
    server.requests.length = 0;
    const guessRepo = join(tmp.dir, 'guess');
    const guess = await runCli(
      ['crawl', '--seed', `${origin()}/`, ...resolveFlags([HOST, BARE, 'elsewhere.test'], server.port), '--repository', guessRepo, '--threads', '4',
        '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--sitemaps', 'guess'],
      { cwd: tmp.dir, timeoutMs: 90_000 },
    );
    expect(guess.code, guess.stderr).toBe(0);
    expect(paths(HOST).filter((p) => p === '/sitemap.xml')).toHaveLength(1);
    expect(paths(BARE).filter((p) => p === '/sitemap.xml')).toHaveLength(1);
    expect(guess.stderr.split('\n').filter((l) => /"level":(40|50)/.test(l) && l.includes('sitemap'))).toEqual([]);
    expect(guess.stderr).toContain('"level":40'); // warnings do reach stderr (here: no Crawler.conf), so their absence above means something
    const stats = await readStats(guessRepo);
    expect(stats.failures).toBe(0);
    // as by default, and the /sitemap.xml of both hosts missing
    expect(stats['sitemaps']).toEqual({ read: 6, missing: 2, urls: 6 });
  });
});

describe('a default crawl of a site whose robots.txt names no sitemap', () => {
  it('requests robots.txt and the pages, nothing else, in exact breadth-first order with threads = 1', async () => {
    server.requests.length = 0;
    const plain = await runCli(
      ['crawl', '--seed', `http://${PLAIN}:${server.port}/p0.html`, ...resolveFlags([PLAIN], server.port), '--repository', join(tmp.dir, 'plain'),
        '--threads', '1', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0'],
      { cwd: tmp.dir, timeoutMs: 90_000 },
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(server.requests.map((r) => `${r.host}${r.path}`)).toEqual([PLAIN + '/robots.txt', ...[0, 1, 2, 3, 4, 5, 6].map((i) => `${PLAIN}/p${i}.html`)]);
  });
});

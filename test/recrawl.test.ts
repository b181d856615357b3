import { readFile, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { makeTreeSite, writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOST = 'www.recrawl.test';

/** The seed-format records of an index: URL → title. */
async function titles(file: string): Promise<Map<string, string>> {
  const text = await readFile(file, 'utf8');
  return new Map(
    text
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('\t'))
      .map((l) => l.split('\t'))
      .map((f) => [f[1]!.replace(/:\d+\//, '/'), f[3]!]),
  );
}

describe('a crawl into a repository that holds a completed crawl is a recrawl', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  const web = () => join(dir, 'web');

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    await makeTreeSite(web(), [HOST], 7);
    // Old enough that a rewrite below gets a later Last-Modified.
    for (let i = 0; i < 7; i++) await utimes(join(web(), HOST, `p${i}.html`), new Date('2026-01-01'), new Date('2026-01-01'));
    server = await startFixtureServer({ root: web() });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  const crawl = () =>
    runCli(
      ['crawl', '--seed', `http://${HOST}:${server.port}/p0.html`, ...resolveFlags([HOST], server.port), '--repository', join(dir, 'repo'),
        '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0'],
      { cwd: dir },
    );

  it('revalidates each page, keeps unchanged ones, replaces changed ones and drops gone ones', async () => {
    expect((await crawl()).code).toBe(0);
    const first = await titles(join(dir, 'repo', 'index.txt'));
    expect(first.size).toBe(7);

    // p1 changes (and links to a new page p9), p2 disappears.
    await writePage(web(), HOST, 'p1.html', '<title>page 1, revised</title><a href="p3.html">3</a><a href="p4.html">4</a><a href="p9.html">9</a>');
    await writePage(web(), HOST, 'p9.html', '<title>page 9</title>');
    await rm(join(web(), HOST, 'p2.html'));
    await rm(join(web(), HOST, 'p5.html')); // only linked from p2, but known: revisited and found gone
    server.requests.length = 0;

    expect((await crawl()).code).toBe(0);
    const pages = server.requests.filter((r) => !r.path.endsWith('robots.txt'));
    const conditional = pages.filter((r) => r.headers['if-modified-since'] !== undefined && r.headers['if-none-match'] !== undefined);
    expect(conditional.map((r) => r.path).sort()).toEqual(['/p0.html', '/p1.html', '/p2.html', '/p3.html', '/p4.html', '/p5.html', '/p6.html']);
    expect(pages.filter((r) => r.status === 304).map((r) => r.path).sort()).toEqual(['/p0.html', '/p3.html', '/p4.html', '/p6.html']);

    const second = await titles(join(dir, 'repo', 'index.txt'));
    expect([...second.keys()].sort()).toEqual(
      ['p0', 'p1', 'p3', 'p4', 'p6', 'p9'].map((p) => `http://${HOST}/${p}.html`),
    );
    expect(second.get(`http://${HOST}/p1.html`)).toBe('page 1, revised');
    expect(second.get(`http://${HOST}/p0.html`)).toBe(first.get(`http://${HOST}/p0.html`));

    const stats = JSON.parse(await readFile(join(dir, 'repo', 'stats.json'), 'utf8')) as { recrawl: Record<string, number> };
    expect(stats.recrawl).toEqual({ new: 1, changed: 1, unchanged: 4, gone: 2 });
  });
});

describe('a recrawl of a site that sends no ETag and no Last-Modified', () => {
  const PAGES = ['/', '/a.html', '/b.html', '/c.html', '/d.html'];
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  let edition = 1;

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    server = await startFixtureServer({
      root: dir,
      hooks: {
        // Every page the same bytes at every request but /b.html, which changes when the edition does; no validators.
        handle: (_req, res, { path }) => {
          if (!PAGES.includes(path)) res.writeHead(404).end();
          else {
            const links = path === '/' ? PAGES.slice(1).map((p) => `<a href="${p}">${p}</a>`).join('') : '';
            const text = path === '/b.html' ? `edition ${edition}` : `page ${path}`;
            res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><title>${text}</title>${links}`);
          }
          return true;
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  it('counts the pages whose content MD5 is the same as unchanged, the others as changed', async () => {
    const repo = join(dir, 'repo');
    const crawl = () =>
      runCli(
        ['crawl', '--seed', `http://${HOST}:${server.port}/`, ...resolveFlags([HOST], server.port), '--repository', repo,
          '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0', '--sitemaps', 'false'],
        { cwd: dir },
      );
    const first = await crawl();
    expect(first.code, first.stderr).toBe(0);
    edition++;
    server.requests.length = 0;
    const second = await crawl();
    expect(second.code, second.stderr).toBe(0);
    // Nothing to revalidate with: every page came back whole, with a 200.
    expect(server.requests.filter((r) => r.path !== '/robots.txt').map((r) => [r.path, r.status]).sort()).toEqual(PAGES.map((p) => [p, 200]).sort());
    const stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8')) as { recrawl: Record<string, number> };
    expect(stats.recrawl).toEqual({ new: 0, changed: 1, unchanged: 4, gone: 0 });
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../src/config/build-config.js';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { runCrawl } from '../src/app/run-crawl.js';
import { createLogger } from '../src/log/create-logger.js';
import { writePage } from './support/make-site.js';
import { tempDir } from './support/temp-dir.js';

const HOST = 'www.adaptive.test';
const HOUR = 3_600_000;
const CHANGING = ['/news-1.html', '/news-2.html'];
const STEADY = ['/about.html', '/archive.html'];

interface JsonRecord { readonly url: string; readonly nextFetch: string; readonly status: number }

/**
 * Against a real loopback server whose news pages change before every run and whose other pages
 * never do, crawls run on a clock moved forward by hours between runs (the crawl's injectable
 * clock; the server and the fetches are real), with the default period (72 h), min-interval (1 h)
 * and max-interval (720 h).
 */
describe('recrawl-policy = adaptive', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  let offset = 0; // hours the crawl's clock is ahead of the wall clock
  let edition = 0;
  const web = () => join(dir, 'web');
  const page = (path: string) => `http://${HOST}:${server.port}${path}`;

  const writeNews = async (): Promise<void> => {
    edition++;
    for (const path of CHANGING) await writePage(web(), HOST, path.slice(1), `<!doctype html><title>News, edition ${edition}</title><p>Edition ${edition} of ${path}: the story so far.</p>`);
  };

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    const links = [...CHANGING, ...STEADY].map((p) => `<a href="${p.slice(1)}">${p}</a>`).join('\n');
    await writePage(web(), HOST, 'index.html', `<!doctype html><title>Home</title>${links}`);
    for (const path of STEADY) await writePage(web(), HOST, path.slice(1), `<!doctype html><title>${path}</title><p>This page does not change.</p>`);
    await writeNews();
    server = await startFixtureServer({ root: web() });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  /** One crawl at `offset` hours on the crawl's clock; the requests it made and the jsonl records it wrote. */
  const crawlAt = async (hours: number) => {
    offset = hours;
    server.requests.length = 0;
    const { config } = buildConfig([], 'test', {
      startingPoints: [page('/')], repository: join(dir, 'repo'), recrawlPolicy: 'adaptive',
      resolve: [{ host: HOST, port: server.port, address: '127.0.0.1' }],
      delayFactor: 0, minDelayMs: 0, maxDelayMs: 0, logLevel: 0, indexFile: join(dir, 'index.jsonl'), indexFormat: 'jsonl', sitemaps: false,
    });
    const log = createLogger({ logFile: join(dir, 'log'), logLevel: 0 });
    const { exitCode } = await runCrawl(config, log, { stdout: new PassThrough(), now: () => Date.now() + offset * HOUR });
    expect(exitCode).toBe(0);
    const records = (await readFile(join(dir, 'index.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as JsonRecord);
    const requested = server.requests.map((r) => r.path).filter((p) => p !== '/robots.txt').sort();
    return { requested, due: new Map(records.map((r) => [new URL(r.url).pathname, (Date.parse(r.nextFetch) - Date.now()) / HOUR])) };
  };

  it('after three recrawls the changing pages are due sooner than the unchanged ones, and a recrawl requests only the pages due', async () => {
    const first = await crawlAt(0);
    expect(first.requested).toEqual(['/', ...CHANGING, ...STEADY].sort());
    // A new page's first interval is the period.
    for (const [path, due] of first.due) expect(due, path).toBeCloseTo(72, 0);

    let last = first;
    for (let recrawl = 1; recrawl <= 3; recrawl++) {
      await writeNews();
      // Just after the last page falls due: every page is requested.
      last = await crawlAt(Math.max(...last.due.values()) + 0.01);
      expect(last.requested, `recrawl ${recrawl}`).toEqual(['/', ...CHANGING, ...STEADY].sort());
    }
    const dueChanging = Math.max(...CHANGING.map((p) => last.due.get(p)!));
    const dueSteady = Math.min(...['/', ...STEADY].map((p) => last.due.get(p)!));
    expect(dueChanging).toBeLessThan(dueSteady);

    // Between the two: only the changing pages are requested; the others keep their records.
    await writeNews();
    const fourth = await crawlAt(dueChanging + 0.01);
    expect(fourth.requested).toEqual(CHANGING);
    expect([...fourth.due.keys()].sort()).toEqual(['/', ...CHANGING, ...STEADY].sort());
    for (const p of STEADY) expect(fourth.due.get(p), p).toBeCloseTo(dueSteady, 3);
    const index = await readFile(join(dir, 'repo', 'index.txt'), 'utf8');
    expect(index.split('\n').filter((l) => l !== '' && !l.startsWith('\t'))).toHaveLength(5);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import {
  GOOD_PAGES,
  HOSTILE_ROOT,
  hostHooks,
  html,
  linesAbout,
  logLines,
  readHostileStats,
  sendHtml,
  type Handler,
} from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * Servers that would keep a crawl waiting for ever: the crawl must end by itself, within the limits,
 * with every other host crawled.
 */

/** robots.txt asking for a Crawl-delay of 100,000 s, with a sitemap; every page links on. */
const greedy: Handler = (req, res, path) => {
  if (path === '/robots.txt') {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`User-agent: *\nCrawl-delay: 100000\nSitemap: http://${req.headers.host}/map.xml\n`);
  } else sendHtml(res, html(`greedy ${path}`, ['/next']));
};

/** Always 503, robots.txt too, asking to be asked again in 100,000 s. */
const later: Handler = (_req, res) => sendHtml(res, html('come back tomorrow'), 503, { 'Retry-After': '100000' });

const HOSTS: Record<string, Handler> = { 'greedy.test': greedy, 'later.test': later };

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('hang', { root: HOSTILE_ROOT, hooks: hostHooks(HOSTS), extraHosts: Object.keys(HOSTS) });
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** Fails a crawl that the limits did not end: it is killed long before it could wait out what it was asked. */
const HANG_MS = 60_000;

describe('no request waits longer than the limits say', () => {
  it('a host whose Crawl-delay is above max-crawl-delay is dropped with every URL queued for it, its sitemaps too', async () => {
    const repo = join(tmp.dir, 'crawl-delay');
    const seeds = [web.url('greedy.test'), web.url('greedy.test', '/two'), web.url('good.test')].flatMap((s) => ['--seed', s]);
    const run = await web.crawl([...seeds, '--repository', repo, '--sitemaps', 'true', '--log-level', '2', '--threads', '2'], { cwd: tmp.dir, timeoutMs: HANG_MS });
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests.filter((r) => r.host === 'greedy.test').map((r) => r.path)).toEqual(['/robots.txt']);
    const stats = await readHostileStats(repo);
    expect(stats.droppedByReason['crawl-delay']).toBe(2);
    const indexed = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => r.url);
    for (const path of GOOD_PAGES) expect(indexed).toContain(web.url('good.test', path));
  }, HANG_MS + 30_000);

  it('a robots.txt whose Retry-After is above the longest honoured (10 minutes) is given up at once, as a page would be', async () => {
    const repo = join(tmp.dir, 'retry-after');
    const seeds = [web.url('later.test'), web.url('good.test')].flatMap((s) => ['--seed', s]);
    const run = await web.crawl([...seeds, '--repository', repo, '--max-retries', '1', '--threads', '2', '--log-level', '2'], { cwd: tmp.dir, timeoutMs: HANG_MS });
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests.filter((r) => r.host === 'later.test').map((r) => r.path)).toEqual(['/robots.txt']);
    expect(linesAbout(logLines(run.stderr), web.url('later.test'))).toContainEqual(expect.objectContaining({ reason: 'robots-unavailable' }));
    expect((await readHostileStats(repo)).droppedByReason['robots-unavailable']).toBe(1);
  }, HANG_MS + 30_000);
});

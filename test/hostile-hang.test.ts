import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
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
  noRobots,
  readHostileStats,
  sendHtml,
  type Handler,
} from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

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

/** A path made for `(a+)+$`: forty a's and a b, which a backtracking engine takes 2^40 steps to refuse. */
const EVIL = `/${'a'.repeat(40)}b`;

/** Pages /p1 ... /p8, each linking to the next and, as the home page does, to {@link EVIL}. */
const evil: Handler = noRobots((_req, res, path) => {
  const n = path === '/' ? 0 : Number(/^\/p(\d+)$/.exec(path)?.[1] ?? 8);
  sendHtml(res, html(`evil ${path}`, n < 8 ? [EVIL, `/p${n + 1}`] : []));
});

const HOSTS: Record<string, Handler> = { 'greedy.test': greedy, 'later.test': later, 'evil.test': evil };

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

describe('a URL filter that backtracks catastrophically', () => {
  /** The pages of evil.test: the home page, /p1 ... /p8 and the path made for the pattern, which it does not match. */
  const EVIL_PAGES = ['/', ...Array.from({ length: 8 }, (_, i) => `/p${i + 1}`), EVIL];
  const indexedOf = async (repo: string) => parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => r.url);

  it('cannot stall the crawl: reject-list (a+)+$ with a link made for it, and the crawl ends with every page', async () => {
    const repo = join(tmp.dir, 'evil');
    const run = await web.crawl(['--seed', web.url('evil.test'), '--reject-list', '(a+)+$', '--repository', repo, '--threads', '2'], { cwd: tmp.dir, timeoutMs: HANG_MS });
    expect(run.code, run.stderr).toBe(0);
    expect((await indexedOf(repo)).sort()).toEqual(EVIL_PAGES.map((p) => web.url('evil.test', p)).sort());
  }, HANG_MS + 30_000);

  it('leaves signals working: SIGTERM mid-crawl exits 143, and the same command resumes and finishes, fetching again at most the page the stop cut short', async () => {
    const repo = join(tmp.dir, 'evil-signal');
    const agent = 'tarantula/e2e-evil-signal';
    const mine = () => web.server.requests.filter((r) => r.headers['user-agent'] === agent && r.host === 'evil.test' && r.path !== '/robots.txt');
    // A rest of 300 ms between pages keeps the crawl going when the signal comes.
    const args = ['--seed', web.url('evil.test'), '--reject-list', '(a+)+$', '--repository', repo, '--min-delay', '300', '--user-agent', agent];
    let child: ChildProcess | undefined;
    const first = web.crawl(args, { cwd: tmp.dir, timeoutMs: HANG_MS, onSpawn: (c) => (child = c) });
    await until(() => mine().length >= 3, HANG_MS);
    child!.kill('SIGTERM');
    const stopped = await first;
    expect(stopped.signal, stopped.stderr).toBeNull();
    expect(stopped.code, stopped.stderr).toBe(143);
    expect((await readHostileStats(repo)).completed).toBe(false);
    const before = mine().length;

    const again = await web.crawl(args, { cwd: tmp.dir, timeoutMs: HANG_MS });
    expect(again.code, again.stderr).toBe(0);
    expect((await indexedOf(repo)).sort()).toEqual(EVIL_PAGES.map((p) => web.url('evil.test', p)).sort());
    const paths = mine().map((r) => r.path);
    expect(paths.length).toBeGreaterThan(before);
    expect(new Set(paths)).toEqual(new Set(EVIL_PAGES));
    expect(paths.length - EVIL_PAGES.length).toBeLessThanOrEqual(1);
  }, 2 * HANG_MS + 30_000);

  it('gets the same protection in a pipeline of tarantula run: its own regexps cannot stall the crawl either', async () => {
    const repo = join(tmp.dir, 'evil-run');
    const file = join(tmp.dir, 'evil-filter.mts');
    await writeFile(
      file,
      [
        "import { filter, tap } from 'rxjs';",
        "import { crawl, defaultSinks, defaultSpec, definePipeline } from 'tarantula';",
        '// The pipeline\'s own filter, with the same pattern: it prints the URLs that it does not match.',
        'export default definePipeline((ctx, sinks) =>',
        '  crawl({ ...defaultSpec(ctx), stop: sinks.stop }).pipe(defaultSinks(ctx, sinks),',
        "    filter((o) => o.kind === 'document' && !/(a+)+$/.test(o.req.url)), tap((o) => sinks.stdout.write(`${o.req.url}\\n`))));",
      ].join('\n'),
    );
    const run = await runCli(['run', file, '--seed', web.url('evil.test'), ...resolveFlags(['evil.test'], web.server.port), '--repository', repo, '--min-delay', '0', '--max-delay', '0', '--delay-factor', '0', '--sitemaps', 'false', '--log-level', '0'], {
      cwd: tmp.dir,
      timeoutMs: HANG_MS,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean).sort()).toEqual(EVIL_PAGES.map((p) => web.url('evil.test', p)).sort());
  }, HANG_MS + 30_000);
});

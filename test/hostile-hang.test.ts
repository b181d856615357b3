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
import { readWarc, warcFiles } from './support/warc-files.js';

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

/** What {@link dripping} sends first: the archive keeps it, and what came after it. */
const DRIP_HEAD = '<!DOCTYPE html><title>drip</title><p>';

/** A 200 whose body comes a byte every 200 ms, for ever: never idle long enough for body-timeout. */
const dripping =
  (type: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'Content-Type': type }).write(DRIP_HEAD);
    const drip = setInterval(() => res.write('x'), 200);
    res.on('close', () => clearInterval(drip));
  };

const HOSTS: Record<string, Handler> = {
  'greedy.test': greedy,
  'later.test': later,
  'evil.test': evil,
  // A page, a robots.txt and a sitemap that each trickle in for ever.
  'drip.test': noRobots((req, res, path) => (path === '/' ? dripping('text/html')(req, res, path) : sendHtml(res, html('not found'), 404))),
  'driprobots.test': (req, res, path) => (path === '/robots.txt' ? dripping('text/plain')(req, res, path) : sendHtml(res, html('never reached'))),
  'dripmap.test': (req, res, path) => {
    if (path === '/robots.txt') res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`Sitemap: http://${req.headers.host}/sitemap.xml\n`);
    else if (path === '/sitemap.xml') dripping('application/xml')(req, res, path);
    else sendHtml(res, html('dripmap home'));
  },
};

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

describe('download-timeout: a body trickled in a byte at a time', () => {
  it('fails the page (not retried), the robots.txt and the sitemap alike; the crawl goes on, and the WARC keeps the cut body with WARC-Truncated: time', async () => {
    const repo = join(tmp.dir, 'drip');
    const seeds = ['drip.test', 'driprobots.test', 'dripmap.test', 'good.test'].flatMap((h) => ['--seed', web.url(h)]);
    const run = await web.crawl(
      [...seeds, '--repository', repo, '--download-timeout', '1500', '--sitemaps', 'true', '--warc', join(repo, 'warc', 'crawl'), '--max-retries', '1', '--threads', '4', '--log-level', '2'],
      { cwd: tmp.dir, timeoutMs: HANG_MS },
    );
    expect(run.code, run.stderr).toBe(0);
    const log = logLines(run.stderr);
    expect(run.requests.filter((r) => r.host === 'drip.test' && r.path === '/')).toHaveLength(1);
    expect(linesAbout(log, web.url('drip.test'))).toContainEqual(expect.objectContaining({ level: 40, code: 'download-timeout' }));
    expect(linesAbout(log, web.url('dripmap.test', '/sitemap.xml'))).toContainEqual(expect.objectContaining({ code: 'download-timeout' }));
    expect(linesAbout(log, web.url('driprobots.test'))).toContainEqual(
      expect.objectContaining({ reason: 'robots-unavailable', msg: expect.stringMatching(/download took longer than 1500 ms/) }),
    );
    const stats = await readHostileStats(repo);
    expect(stats.failuresByCode['download-timeout']).toBe(2);
    expect(stats.droppedByReason['robots-unavailable']).toBe(1);
    const indexed = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => r.url);
    for (const path of GOOD_PAGES) expect(indexed).toContain(web.url('good.test', path));
    expect(indexed).toContain(web.url('dripmap.test'));

    const records = (await Promise.all((await warcFiles(join(repo, 'warc'), 'crawl')).map(readWarc))).flat();
    const cut = records.filter((r) => r.type === 'response' && r.header('WARC-Target-URI') === web.url('drip.test'));
    expect(cut).toHaveLength(1);
    expect(cut[0]!.header('WARC-Truncated')).toBe('time');
    expect(cut[0]!.block.subarray(cut[0]!.payloadAt).toString()).toMatch(new RegExp(`^${DRIP_HEAD}x*$`));
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
    // A rest of a second between pages keeps the crawl going when the signal comes, however slow the machine.
    const args = ['--seed', web.url('evil.test'), '--reject-list', '(a+)+$', '--repository', repo, '--min-delay', '1000', '--user-agent', agent];
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

import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureHooks } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, readStats, startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';
import { startServedCrawl, type ServedCrawl } from './support/served-crawl.js';

/** Hosts of each web: enough for both workers to lease some. */
const HOSTS = 4;
/** Pages of each finite site; each answered after PAGE_MS, so that a crawl is still busy when a test steers it. */
const PAGES = 12;
const PAGE_MS = 120;
const endless = (k: number): string => `endless-${k}.test`;
const site = (k: number): string => `site-${k}.test`;
const ALL_HOSTS = [...Array.from({ length: HOSTS }, (_, k) => endless(k)), ...Array.from({ length: HOSTS }, (_, k) => site(k)), 'seeded.test'];

/**
 * The loopback web: on endless-K.test an endless binary tree whose pages link the next host's root
 * too; on site-K.test `/` linking `/p/1` … `/p/12` and the next host's root; on seeded.test one page
 * that no other page links (only a seed posted to the crawl reaches it). robots.txt is 404 everywhere.
 */
const loopbackWeb: FixtureHooks = {
  handle: (_req, res, at) => {
    if (!ALL_HOSTS.includes(at.host)) return false;
    if (at.path === '/robots.txt') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('none\n');
      return true;
    }
    let links: string[] | undefined;
    const k = Number(/-(\d+)\.test$/.exec(at.host)?.[1] ?? 0);
    if (at.host.startsWith('endless-')) {
      const n = at.path === '/' ? 1 : Number(/^\/n\/(\d+)$/.exec(at.path)?.[1] ?? NaN);
      if (!Number.isNaN(n)) links = [`/n/${2 * n}`, `/n/${2 * n + 1}`, web.url(endless((k + 1) % HOSTS))];
    } else if (at.host.startsWith('site-')) {
      const n = at.path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(at.path)?.[1] ?? NaN);
      if (n === 0) links = [...Array.from({ length: PAGES }, (_, i) => `/p/${i + 1}`), web.url(site((k + 1) % HOSTS))];
      else if (n >= 1 && n <= PAGES) links = ['/'];
    } else if (at.path === '/') links = [];
    const body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${at.host}${at.path}</title></head><body>${(links ?? []).map((l) => `<a href="${l}">${l}</a>`).join('\n')}</body></html>\n`;
    const timer = setTimeout(() => {
      if (links === undefined) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      else res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(body) }).end(body);
    }, PAGE_MS);
    res.on('close', () => clearTimeout(timer));
    return true;
  },
};

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
  web = await startWeb('serve-shared', { root: tmp.dir, hooks: loopbackWeb, extraHosts: ALL_HOSTS });
  redis = await startRedis();
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

interface Served extends ServedCrawl {
  readonly repo: string;
  readonly agent: string;
}

function crawlArgs(seed: string, repo: string, agent: string): string[] {
  return [
    'crawl', '--seed', seed, '--scope', 'free-spanning', '--threads', '2', '--max-per-host', '1', '--repository', repo, '--log-level', '0', '--user-agent', agent,
    '--frontier', redis.url, '--workers', '2', '--serve', '0', ...NO_DELAYS, ...NO_SITEMAPS, ...web.resolve(),
  ];
}

/** Starts a two-worker shared crawl with `--serve 0` and waits until its command's log says where it serves. */
async function startServed(name: string, seed: string): Promise<Served> {
  const repo = join(tmp.dir, name);
  const agent = `tarantula/serve-shared-${name}`;
  return { ...(await startServedCrawl(crawlArgs(seed, repo, agent), tmp.dir)), repo, agent };
}

const tokenOf = async (repo: string): Promise<string> => (await readFile(join(repo, '.tarantula', 'serve-token'), 'utf8')).trim();
const post = (served: Served, path: string, token: string | undefined, body?: string) =>
  fetch(served.base + path, {
    method: 'POST',
    headers: { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'Content-Type': 'text/plain' }) },
    ...(body === undefined ? {} : { body }),
  });
interface WorkerStatus { readonly state: string; readonly inFlight: number }
const status = async (served: Served) => (await (await fetch(`${served.base}/status`)).json()) as { state: string; workers: Record<string, WorkerStatus> };
const metrics = async (served: Served) => (await fetch(`${served.base}/metrics`)).text();
/** The value of a sample of the exposition with exactly these labels (none: the crawl's total). */
const sampleOf = (text: string, name: string, labels = ''): number => {
  const escaped = labels.replace(/[{}"]/g, (c) => `\\${c}`);
  return Number(new RegExp(`^${name}${escaped} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
};
const requestsOf = (served: Served) => web.server.requests.filter((r) => r.headers['user-agent'] === served.agent && r.path !== '/robots.txt');

async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  for (const end = Date.now() + timeoutMs; ; await sleep(100)) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting; last read ${JSON.stringify(value)}`);
  }
}

describe('tarantula crawl --frontier redis://… --workers 2 --serve: the verbs act on the whole shared crawl', () => {
  it('serves each worker\'s metrics with a worker label and the totals; without the token nothing changes; pause and resume reach both workers; a posted seed is crawled', async () => {
    const served = await startServed('steer', web.url(endless(0)));
    try {
      // Both workers serve, and fetch: each has series of its own.
      const both = await eventually(() => metrics(served), (text) => [0, 1].every((w) => sampleOf(text, 'tarantula_pages_fetched_total', `{worker="${w}"}`) > 0));
      const check = spawnSync('promtool', ['check', 'metrics'], { input: both, encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      const perWorker = [0, 1].map((w) => sampleOf(both, 'tarantula_pages_fetched_total', `{worker="${w}"}`));
      expect(sampleOf(both, 'tarantula_pages_fetched_total')).toBe(perWorker[0]! + perWorker[1]!);
      expect(sampleOf(both, 'tarantula_fetch_duration_seconds_count')).toBe([0, 1].reduce((n, w) => n + sampleOf(both, 'tarantula_fetch_duration_seconds_count', `{worker="${w}"}`), 0));
      expect(sampleOf(both, 'process_resident_memory_bytes', '{worker="1"}')).toBeGreaterThan(0);

      const token = await tokenOf(served.repo);
      for (const path of ['/pause', '/stop', '/seeds']) {
        const none = await post(served, path, undefined, path === '/seeds' ? web.url('seeded.test') : undefined);
        expect(none.status, path).toBe(401);
        expect((await post(served, path, 'not-the-token')).status, path).toBe(403);
      }
      const before = requestsOf(served).length;
      await until(() => requestsOf(served).length >= before + 4);
      expect((await status(served)).state).toBe('running');
      expect(Object.values((await status(served)).workers).map((w) => w.state)).toEqual(['running', 'running']);

      expect((await post(served, '/pause', token)).status).toBe(200);
      expect((await status(served)).state).toBe('paused');
      // Both workers pause within a moment; their in-flight requests finish and none starts after.
      await eventually(() => status(served), (s) => Object.values(s.workers).length === 2 && Object.values(s.workers).every((w) => w.state === 'paused' && w.inFlight === 0));
      const quietFrom = Date.now();
      await sleep(2_500);
      expect(requestsOf(served).filter((r) => r.start > quietFrom)).toEqual([]);

      // A seed posted while paused waits; after the resume it is crawled, and the rest goes on.
      const seeds = await post(served, '/seeds', token, `${web.url('seeded.test')}\nnot a url\n`);
      expect(seeds.status).toBe(202);
      expect(await seeds.json()).toEqual({ taken: 1, refused: ['line 2: "not a url" is not an absolute http(s) URL'] });
      const resumedAt = Date.now();
      expect((await post(served, '/resume', token)).status).toBe(200);
      await until(() => requestsOf(served).some((r) => r.host === 'seeded.test' && r.path === '/' && r.status === 200), 30_000);
      await until(() => requestsOf(served).filter((r) => r.host.startsWith('endless-') && r.start > resumedAt).length >= 4, 30_000);

      expect((await post(served, '/stop', token)).status).toBe(202);
      const { code, stderr } = await served.exit;
      expect(code, stderr).toBe(143);
    } finally {
      served.child.kill('SIGKILL');
    }
  }, 180_000);

  it('POST /stop stops every worker as SIGTERM does (exit 143), and the same command resumes with every page once', async () => {
    const seed = web.url(site(0));
    const served = await startServed('stop', seed);
    await until(() => requestsOf(served).filter((r) => r.status === 200).length >= 4, 30_000);
    expect((await post(served, '/stop', await tokenOf(served.repo))).status).toBe(202);
    const stopped = await served.exit;
    expect(stopped.code, stopped.stderr).toBe(143);
    expect((await readStats(served.repo))['completed']).toBe(false);
    expect(requestsOf(served).length).toBeLessThan(HOSTS * (PAGES + 1));

    // The stop was this run's: the next one runs to the end.
    const again = await runCli(crawlArgs(seed, served.repo, served.agent), { cwd: tmp.dir, timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    const urls = parseSeedIndex(await readFile(join(served.repo, 'index.txt'), 'utf8')).map((r) => r.url).sort();
    const all = Array.from({ length: HOSTS }, (_, k) => [web.url(site(k)), ...Array.from({ length: PAGES }, (_, i) => web.url(site(k), `/p/${i + 1}`))]).flat().sort();
    expect(urls).toEqual(all);
  }, 180_000);
});

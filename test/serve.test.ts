import { spawnSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureHooks } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, readStats, startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';
import { startServedCrawl, type ServedCrawl } from './support/served-crawl.js';

/** Pages of the finite site; each answered after PAGE_MS, so that a crawl is still busy when a test steers it. */
const PAGES = 30;
const PAGE_MS = 120;

/**
 * The loopback web: on endless.test an endless binary tree (`/` and `/n/K` link `/n/2K` and
 * `/n/2K+1`), on site.test `/` linking `/p/1` … `/p/30`, on seeded.test one page that no other
 * page links (only a seed posted to the crawl reaches it). robots.txt is 404 everywhere.
 */
const loopbackWeb: FixtureHooks = {
  handle: (_req, res, at) => {
    if (!['endless.test', 'site.test', 'seeded.test'].includes(at.host)) return false;
    if (at.path === '/robots.txt') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('none\n');
      return true;
    }
    let links: string[] | undefined;
    if (at.host === 'endless.test') {
      const k = at.path === '/' ? 1 : Number(/^\/n\/(\d+)$/.exec(at.path)?.[1] ?? NaN);
      if (!Number.isNaN(k)) links = [`/n/${2 * k}`, `/n/${2 * k + 1}`];
    } else if (at.host === 'site.test') {
      const n = at.path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(at.path)?.[1] ?? NaN);
      if (n === 0) links = Array.from({ length: PAGES }, (_, i) => `/p/${i + 1}`);
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
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
  web = await startWeb('serve', { root: tmp.dir, hooks: loopbackWeb, extraHosts: ['endless.test', 'site.test', 'seeded.test'] });
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** A crawl started with `--serve`, the address its log names, and its exit. */
interface Served extends ServedCrawl {
  readonly repo: string;
  readonly agent: string;
}

function crawlArgs(seed: string, repo: string, agent: string, extra: readonly string[]): string[] {
  return ['crawl', '--seed', seed, '--threads', '2', '--max-per-host', '2', '--repository', repo, '--log-level', '0', '--user-agent', agent, '--serve', '0', ...NO_DELAYS, ...NO_SITEMAPS, ...web.resolve(), ...extra];
}

/** Starts `tarantula crawl … --serve 0` (the system picks the port) and waits until its log says where it serves. */
async function startServed(name: string, seed: string, extra: readonly string[] = []): Promise<Served> {
  const repo = join(tmp.dir, name);
  const agent = `tarantula/serve-${name}`;
  return { ...(await startServedCrawl(crawlArgs(seed, repo, agent, extra), tmp.dir)), repo, agent };
}

const tokenOf = async (repo: string): Promise<string> => (await readFile(join(repo, '.tarantula', 'serve-token'), 'utf8')).trim();
const post = (served: Served, path: string, token: string | undefined, body?: string) =>
  fetch(served.base + path, {
    method: 'POST',
    headers: { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'Content-Type': 'text/plain' }) },
    ...(body === undefined ? {} : { body }),
  });
const status = async (served: Served) => (await (await fetch(`${served.base}/status`)).json()) as { state: string; documents: number; pending: number; inFlight: number };
const metrics = async (served: Served) => (await fetch(`${served.base}/metrics`)).text();
/** The value of an unlabelled sample of the exposition. */
const sampleOf = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
const requestsOf = (served: Served) => web.server.requests.filter((r) => r.headers['user-agent'] === served.agent && r.path !== '/robots.txt');

/** polls with `check` until it holds, reading `read` each time (async conditions for {@link until}). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  for (const end = Date.now() + timeoutMs; ; await sleep(50)) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting; last read ${JSON.stringify(value)}`);
  }
}

describe('tarantula crawl --serve: metrics, status and the control API of a running crawl', () => {
  it('serves Prometheus metrics that promtool accepts and that move; pause stops new requests, resume starts them, posted seeds are crawled; the page counter ends equal to stats.json', async () => {
    const served = await startServed('steer', web.url('endless.test'));
    try {
      const first = await metrics(served);
      const check = spawnSync('promtool', ['check', 'metrics'], { input: first, encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      for (const name of ['tarantula_pages_fetched_total', 'tarantula_frontier_pending', 'tarantula_requests_in_flight', 'tarantula_fetch_duration_seconds_count', 'process_resident_memory_bytes']) {
        expect(sampleOf(first, name), name).not.toBeNaN();
      }
      expect(first).toMatch(/^# TYPE tarantula_fetch_duration_seconds histogram$/m);
      expect(first).toMatch(/^# TYPE tarantula_failures_total counter$/m);
      const moved = await eventually(() => metrics(served), (text) => sampleOf(text, 'tarantula_pages_fetched_total') >= sampleOf(first, 'tarantula_pages_fetched_total') + 3);
      expect(sampleOf(moved, 'tarantula_fetch_duration_seconds_count')).toBeGreaterThanOrEqual(3);
      expect(spawnSync('promtool', ['check', 'metrics'], { input: moved, encoding: 'utf8' }).status).toBe(0);

      const token = await tokenOf(served.repo);
      const paused = await post(served, '/pause', token);
      expect(paused.status).toBe(200);
      const pausedAt = Date.now();
      expect((await status(served)).state).toBe('paused');
      // In-flight requests finish; none starts a second after the pause, however long it lasts.
      await eventually(() => status(served), (s) => s.inFlight === 0);
      await sleep(2_500);
      expect(requestsOf(served).filter((r) => r.start > pausedAt + 1_000)).toEqual([]);
      expect(sampleOf(await metrics(served), 'tarantula_requests_in_flight')).toBe(0);

      // A seed posted while paused waits; after the resume it is crawled, and so is the rest.
      const seeds = await post(served, '/seeds', token, `${web.url('seeded.test')}\nnot a url\n`);
      expect(seeds.status).toBe(202);
      expect(await seeds.json()).toEqual({ taken: 1, refused: ['line 2: "not a url" is not an absolute http(s) URL'] });
      const resumedAt = Date.now();
      expect((await post(served, '/resume', token)).status).toBe(200);
      await until(() => requestsOf(served).some((r) => r.host === 'seeded.test' && r.path === '/' && r.status === 200));
      await until(() => requestsOf(served).filter((r) => r.host === 'endless.test' && r.start > resumedAt).length >= 2);

      // Paused again with nothing in flight, the counter stays where stats.json will find it.
      expect((await post(served, '/pause', token)).status).toBe(200);
      await eventually(() => status(served), (s) => s.inFlight === 0);
      const answered = () => requestsOf(served).filter((r) => r.status === 200).length;
      const final = await eventually(() => metrics(served), (text) => sampleOf(text, 'tarantula_pages_fetched_total') === answered());
      expect((await post(served, '/stop', token)).status).toBe(202);
      const { code, stderr } = await served.exit;
      expect(code, stderr).toBe(143);
      const stats = await readStats(served.repo);
      expect(stats.documents).toBe(sampleOf(final, 'tarantula_pages_fetched_total'));
      const index = parseSeedIndex(await readFile(join(served.repo, 'index.txt'), 'utf8'));
      expect(index.map((r) => r.url)).toContain(web.url('seeded.test'));
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  it('POST /stop stops as SIGTERM does (exit 143), and the same command resumes with every page once', async () => {
    const seed = web.url('site.test');
    const served = await startServed('stop', seed);
    await until(() => requestsOf(served).filter((r) => r.status === 200).length >= 4);
    expect((await post(served, '/stop', await tokenOf(served.repo))).status).toBe(202);
    const stopped = await served.exit;
    expect(stopped.code, stopped.stderr).toBe(143);
    expect((await readStats(served.repo))['completed']).toBe(false);

    const again = await runCli(crawlArgs(seed, served.repo, served.agent, []), { cwd: tmp.dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('crawl resumed');
    const urls = parseSeedIndex(await readFile(join(served.repo, 'index.txt'), 'utf8')).map((r) => r.url).sort();
    expect(urls).toEqual([seed, ...Array.from({ length: PAGES }, (_, i) => web.url('site.test', `/p/${i + 1}`))].sort());
  });

  it('without the token a POST gets 401, with another 403, and nothing changes; GETs on loopback need none; it listens on loopback only', async () => {
    const served = await startServed('refused', web.url('endless.test'));
    try {
      expect(new URL(served.base).hostname).toBe('127.0.0.1');
      // The listening socket, as the kernel has it: bound to 127.0.0.1, not to every address.
      const port = Number(new URL(served.base).port).toString(16).toUpperCase().padStart(4, '0');
      const listening = (await readFile('/proc/net/tcp', 'utf8')).split('\n').filter((l) => / 0A /.test(l) && l.includes(`:${port} `));
      expect(listening.map((l) => l.trim().split(/\s+/)[1])).toEqual([`0100007F:${port}`]);
      expect((await readFile('/proc/net/tcp6', 'utf8').catch(() => '')).split('\n').filter((l) => / 0A /.test(l) && l.includes(`:${port} `))).toEqual([]);

      // A page that rebound its name to 127.0.0.1 (DNS rebinding) reads nothing.
      const rebound = await new Promise<number>((resolve, reject) =>
        request(`${served.base}/status`, { headers: { Host: `evil.test:${new URL(served.base).port}` } }, (res) => (res.resume(), resolve(res.statusCode!))).on('error', reject).end(),
      );
      expect(rebound).toBe(421);

      for (const path of ['/pause', '/stop', '/seeds']) {
        const none = await post(served, path, undefined, path === '/seeds' ? web.url('seeded.test') : undefined);
        expect(none.status, path).toBe(401);
        expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect((await post(served, path, 'not-the-token', path === '/seeds' ? web.url('seeded.test') : undefined)).status, path).toBe(403);
      }
      const before = requestsOf(served).length;
      await until(() => requestsOf(served).length >= before + 3);
      expect((await status(served)).state).toBe('running');
      expect(requestsOf(served).some((r) => r.host === 'seeded.test')).toBe(false);
      const mode = (await stat(join(served.repo, '.tarantula', 'serve-token'))).mode & 0o777;
      expect(mode).toBe(0o600);
      expect(served.stderr()).toContain(`control API token: ${await tokenOf(served.repo)}`);
      served.child.kill('SIGTERM');
      expect((await served.exit).code).toBe(143);
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  it('refuses an address beyond loopback without serve-token-file (exit 2); with a token file, every request needs the token', async () => {
    const refused = await runCli(['crawl', '--seed', web.url('site.test'), '--repository', join(tmp.dir, 'open'), '--serve', '0.0.0.0:0'], { cwd: tmp.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe('tarantula: --serve: serve on 0.0.0.0, beyond loopback, needs serve-token-file: anyone who can reach it could stop the crawl');

    await writeFile(join(tmp.dir, 'empty-token.txt'), '\n');
    const empty = await runCli(['crawl', '--seed', web.url('site.test'), '--repository', join(tmp.dir, 'empty'), '--serve', '0', '--serve-token-file', 'empty-token.txt'], { cwd: tmp.dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim()).toBe('tarantula: --serve-token-file: serve-token-file "empty-token.txt" is empty: its first line is the token');

    const tokenFile = join(tmp.dir, 'token.txt');
    await writeFile(tokenFile, 's3cret-token\n');
    const served = await startServed('open', web.url('endless.test'), ['--serve', '0.0.0.0:0', '--serve-token-file', tokenFile]);
    try {
      const base = served.base.replace('0.0.0.0', '127.0.0.1');
      expect((await fetch(`${base}/status`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { Authorization: 'Bearer s3cret-token' } })).status).toBe(200);
      expect(served.stderr()).not.toContain('s3cret-token');
      expect((await fetch(`${base}/stop`, { method: 'POST', headers: { Authorization: 'Bearer s3cret-token' } })).status).toBe(202);
      expect((await served.exit).code).toBe(143);
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  it('a port in use ends the command at once with one line and exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runCli(['crawl', '--seed', web.url('site.test'), '--repository', join(tmp.dir, 'in-use'), '--serve', String(port), '--log-level', '0'], { cwd: tmp.dir });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n').at(-1)).toBe(`tarantula: cannot serve on 127.0.0.1:${port}: EADDRINUSE`);
      expect(web.server.requests.filter((r) => r.host === 'site.test' && r.headers['user-agent']?.includes('in-use'))).toEqual([]);
    } finally {
      taken.close();
    }
  });
});

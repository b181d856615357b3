import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureHooks } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, readStats, startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { CLI } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

/** The case: a home page linking 40 pages, each answered slowly, crawled 8 at a time. */
const PAGES = 40;
const PAGE_MS = 300;
const THREADS = 8;

/**
 * slow.test: `/` links `/p/1` … `/p/40`, and every page links back to `/`, so that the link graph
 * has an edge for each page (a reader that went away is noticed at the next one). robots.txt is 404.
 */
function slowSite(host: string): FixtureHooks {
  return {
    handle: (_req, res, at) => {
      if (at.host !== host) return false;
      if (at.path === '/robots.txt') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('none\n');
        return true;
      }
      const n = at.path === '/' ? 0 : Number(/^\/p\/(\d+)$/.exec(at.path)?.[1] ?? NaN);
      const links = n === 0 ? Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i + 1}">page ${i + 1}</a>`) : ['<a href="/">home</a>'];
      const body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page ${n}</title></head><body>${links.join('\n')}</body></html>\n`;
      const timer = setTimeout(() => {
        if (Number.isNaN(n) || n > PAGES) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        else res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(body) }).end(body);
      }, PAGE_MS);
      res.on('close', () => clearTimeout(timer));
      return true;
    },
  };
}

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
  web = await startWeb('slow', { root: tmp.dir, hooks: slowSite('slow.test'), extraHosts: ['slow.test'] });
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** The crawl's arguments, with a user agent that tells this case's requests apart from the others'. */
function crawlArgs(repo: string, agent: string): string[] {
  return ['--seed', web.url('slow.test'), '--threads', String(THREADS), '--max-per-host', String(THREADS), '--repository', repo, '--log-level', '0', '--user-agent', agent, ...NO_DELAYS, ...NO_SITEMAPS, ...web.resolve()];
}

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

function exited(child: ChildProcess): Promise<Exit> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const tarantula = (args: readonly string[], cwd: string): ChildProcess => spawn(CLI, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/** What the server saw of one case: requests per page (robots.txt left out), and those in flight now. */
function seenBy(agent: string) {
  const mine = () => web.server.requests.filter((r) => r.headers['user-agent'] === agent && r.path !== '/robots.txt');
  return {
    inFlight: () => mine().filter((r) => Number.isNaN(r.end)).length,
    timesEachPage: () => {
      const times = new Map<string, number>();
      for (const r of mine()) times.set(r.path, (times.get(r.path) ?? 0) + 1);
      return times;
    },
  };
}

/** After the stop and the same command again: every page once in the index, at most `threads` fetched twice. */
async function expectNothingLost(repo: string, agent: string): Promise<void> {
  const records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
  const urls = records.map((r) => r.url).sort();
  const expected = [web.url('slow.test'), ...Array.from({ length: PAGES }, (_, i) => web.url('slow.test', `/p/${i + 1}`))].sort();
  expect(urls).toEqual(expected);
  const times = [...seenBy(agent).timesEachPage().values()];
  expect(Math.max(...times)).toBeLessThanOrEqual(2);
  expect(times.filter((t) => t === 2).length).toBeLessThanOrEqual(THREADS);
}

describe('a stop keeps every admitted URL: the same command then finishes the crawl', () => {
  it.concurrent.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s with requests in flight, then exit %i', async (signal, status) => {
    const repo = join(tmp.dir, signal);
    const agent = `tarantula/stop-${signal}`;
    const seen = seenBy(agent);
    const first = tarantula(['crawl', ...crawlArgs(repo, agent)], tmp.dir);
    const firstExit = exited(first);
    await until(() => seen.inFlight() >= THREADS);
    first.kill(signal);
    const stopped = await firstExit;
    expect(stopped.code, stopped.stderr).toBe(status);
    const stats = await readStats(repo);
    expect(stats['returned'], stopped.stderr).toBeGreaterThanOrEqual(1);
    expect(stats.failures).toBe(0);
    expect(stopped.stderr).toMatch(/"returned":\d+,"msg":"\d+ requests? in flight when the crawl stopped (is|are) pending again"/);
    expect(stopped.stderr).not.toContain('aborted');

    const again = await exited(tarantula(['crawl', ...crawlArgs(repo, agent)], tmp.dir));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('crawl resumed');
    await expectNothingLost(repo, agent);
  });

  it('time-limit, then the same command without it: the requests in flight end, the rest stay pending', async () => {
    const repo = join(tmp.dir, 'time-limit');
    const agent = 'tarantula/stop-time-limit';
    const first = await exited(tarantula(['crawl', ...crawlArgs(repo, agent), '--time-limit', '1'], tmp.dir));
    expect(first.code, first.stderr).toBe(0);
    const stats = await readStats(repo);
    expect(stats['completed'], first.stderr).toBe(false);
    expect(stats['pending']).toBeGreaterThanOrEqual(1);
    expect(stats.documents).toBeLessThan(PAGES + 1);

    const rest = await exited(tarantula(['crawl', ...crawlArgs(repo, agent)], tmp.dir));
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toContain('crawl resumed');
    await expectNothingLost(repo, agent);
  });

  it('tarantula run linkgraph … | head -1, then tarantula crawl of the same repository', async () => {
    const repo = join(tmp.dir, 'linkgraph');
    const agent = 'tarantula/stop-linkgraph';
    const quoted = ['run', 'linkgraph', ...crawlArgs(repo, agent)].map((a) => `'${a}'`).join(' ');
    const piped = spawn('bash', ['-c', `set -o pipefail; '${CLI}' ${quoted} | head -1`], { cwd: tmp.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    piped.stdout?.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    const first = await exited(piped);
    expect(first.code, first.stderr).toBe(0);
    expect(stdout).toMatch(/^http:\/\/slow\.test:\d+\/\thttp:\/\/slow\.test:\d+\/p\/1\n$/);
    const stats = await readStats(repo);
    expect(stats['returned'], first.stderr).toBeGreaterThanOrEqual(1);
    expect(stats.documents).toBeLessThan(PAGES + 1);

    const rest = await exited(tarantula(['crawl', ...crawlArgs(repo, agent)], tmp.dir));
    expect(rest.code, rest.stderr).toBe(0);
    await expectNothingLost(repo, agent);
  });
});

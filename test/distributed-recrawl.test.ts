import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRequest } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOSTS = Array.from({ length: 4 }, (_, i) => `again-${i}.test`);
const PAGES = 15;
/** Each page's version, its ETag: a test changes some between two runs. */
const versions = new Map<string, number>();

/** The grid's pages, with ETags, answering If-None-Match with 304 while the page's version is unchanged. */
const grid = gridPages(HOSTS, PAGES, 10, (host, k, etag) => `${host} ${k} ${etag}`, versions);

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('grid', { root: HOSTILE_ROOT, hooks: grid, extraHosts: HOSTS });
  redis = await startRedis();
  tmp = await tempDir();
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

const allPages = (): string[] => HOSTS.flatMap((h) => Array.from({ length: PAGES }, (_, k) => web.url(h, `/${k}`))).sort();
let runs = 0;

/** The page requests the server saw from `agent`, in order of arrival. */
const requestsOf = (agent: string): FixtureRequest[] => web.server.requests.filter((r) => r.headers['user-agent'] === agent && r.path !== '/robots.txt');

/** `tarantula crawl` of the grid with a shared frontier, 2 workers; the requests the server saw of this run. */
async function crawl(repository: string, flags: readonly string[] = [], opts: Parameters<typeof runCli>[1] = {}) {
  const agent = `tarantula/again-${++runs}`;
  const run = await runCli(
    ['crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--seed', web.url(HOSTS[0]!, '/0'), '--scope', 'free-spanning', '--repository', repository,
      '--frontier', redis.url, '--workers', '2', '--threads', '2', '--user-agent', agent, '--log-level', '0', ...web.resolve(), ...flags],
    { cwd: tmp.dir, ...opts },
  );
  return { ...run, requests: requestsOf(agent) };
}

describe('a finished shared crawl, run again', { timeout: 180_000 }, () => {
  it('recrawls: every page requested once, conditionally; 304s keep the stored copies; only the changed pages come again in full', async () => {
    const repository = join(tmp.dir, 'again');
    const first = await crawl(repository);
    expect(first.code, first.stderr).toBe(0);
    expect(first.requests.map((r) => web.url(r.host, r.path)).sort()).toEqual(allPages());
    const changed = [`${HOSTS[1]}/3`, `${HOSTS[2]}/0`, `${HOSTS[3]}/14`];
    for (const page of changed) versions.set(page, 2);

    const second = await crawl(repository);
    expect(second.code, second.stderr).toBe(0);
    const urls = second.requests.map((r) => web.url(r.host, r.path));
    expect(urls.sort()).toEqual(allPages());
    for (const r of second.requests) expect(r.headers['if-none-match'], `${r.host}${r.path}`).toMatch(/^"v\d"$/);
    expect(second.requests.filter((r) => r.status === 200).map((r) => r.host + r.path).sort()).toEqual([...changed].sort());
    expect(second.requests.filter((r) => r.status === 304)).toHaveLength(allPages().length - changed.length);
    const index = parseSeedIndex(await readFile(join(repository, 'index.txt'), 'utf8'));
    expect(index.map((r) => r.url).sort()).toEqual(allPages());
    // The changed pages' records are the new ones; the others kept their stored copies' records.
    for (const r of index) expect(r.title.endsWith(changed.includes(new URL(r.url).hostname + new URL(r.url).pathname) ? '"v2"' : '"v1"'), r.url).toBe(true);
    const stats = JSON.parse(await readFile(join(repository, 'stats.json'), 'utf8')) as { completed: boolean };
    expect(stats.completed).toBe(true);

    // And again: a third round revalidates the newest copies, nothing changed.
    const third = await crawl(repository);
    expect(third.code, third.stderr).toBe(0);
    expect(third.requests.map((r) => web.url(r.host, r.path)).sort()).toEqual(allPages());
    expect(third.requests.every((r) => r.status === 304)).toBe(true);
    expect(parseSeedIndex(await readFile(join(repository, 'index.txt'), 'utf8')).map((r) => r.url).sort()).toEqual(allPages());
  });

  it('with --watch, recrawls the shared crawl every period, conditionally, until SIGINT (exit 130)', async () => {
    const agent = `tarantula/again-${runs + 1}`;
    const n = allPages().length;
    const run = await crawl(join(tmp.dir, 'watched'), ['--watch', '--period', '0.0003'], {
      onSpawn: (child) => {
        // Stop once the second round has had an answer for every page.
        const poll = setInterval(() => {
          if (requestsOf(agent).filter((r) => r.status > 0).length < 2 * n) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 20);
        child.on('exit', () => clearInterval(poll));
      },
    });
    expect(run.code, run.stderr).toBe(130);
    const first = run.requests.slice(0, n);
    const second = run.requests.slice(n, 2 * n);
    expect(first.map((r) => web.url(r.host, r.path)).sort()).toEqual(allPages());
    expect(first.every((r) => r.headers['if-none-match'] === undefined)).toBe(true);
    expect(second.map((r) => web.url(r.host, r.path)).sort()).toEqual(allPages());
    expect(second.every((r) => r.headers['if-none-match'] !== undefined && r.status === 304)).toBe(true);
  });
});

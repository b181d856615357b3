import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRequest } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT, closedPort, logLines } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli, type CliOptions } from './support/run-cli.js';
import { onSecondWorker } from './support/second-worker.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';
import { fetchedByWorker } from './support/worker-journals.js';

/**
 * Timers may fire a little early relative to the server's clock, and the server, in the test's own
 * busy process, notes a response's end a little late: no more than this together. Every gap is still
 * far above none (an overlap) and most of min-delay.
 */
const SLACK_MS = 30;
/** Pages per host; the polite site's crawl lasts long enough (12 s a host, 12 lease periods) for hosts to move between the workers. */
const PAGES = { once: 20, polite: 120, limit: 20, join: 20, kill: 20, sigint: 20, gone: 20, busy: 10 };
/** Each test crawls hosts of its own: `NAME-0.test` … */
const hostsOf = (name: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${name}-${i}.test`);
const SITES = { once: hostsOf('once', 12), polite: hostsOf('polite', 4), limit: hostsOf('limit', 8), join: hostsOf('join', 8), kill: hostsOf('kill', 8), sigint: hostsOf('sigint', 8), gone: hostsOf('gone', 8), busy: hostsOf('busy', 2) };
const DELAY_MS = { once: 30, polite: 0, limit: 10, join: 20, kill: 30, sigint: 30, gone: 30, busy: 0 };
/** While true, busy-0.test/5 is held unanswered: the shared crawl asking for it runs on. */
let holdBusy = true;
const heldBusy: (() => void)[] = [];

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  const all = Object.entries(SITES).map(([name, hosts]) => gridPages(hosts, PAGES[name as keyof typeof SITES], DELAY_MS[name as keyof typeof SITES]));
  web = await startWeb('grid', {
    root: HOSTILE_ROOT,
    hooks: {
      handle: (req, res, at) => {
        if (holdBusy && at.host === 'busy-0.test' && at.path === '/5') return heldBusy.push(() => void all.some((hooks) => hooks.handle!(req, res, at))), true;
        return all.some((hooks) => hooks.handle!(req, res, at));
      },
    },
    extraHosts: Object.values(SITES).flat(),
  });
  redis = await startRedis();
  tmp = await tempDir();
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

/** `tarantula crawl` of one site with a shared frontier; its requests are told apart by the user agent. */
function crawl(name: keyof typeof SITES, flags: readonly string[], opts: CliOptions & { url?: string; repository?: string } = {}) {
  const agent = `tarantula/dist-${name}`;
  const hosts = SITES[name];
  const args = [
    'crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--seed', web.url(hosts[0]!, '/0'), '--scope', 'free-spanning', '--repository', join(tmp.dir, opts.repository ?? name),
    '--frontier', opts.url ?? redis.url, '--user-agent', agent, '--log-level', '0', ...web.resolve(), ...flags,
  ];
  return runCli(args, { cwd: tmp.dir, ...opts });
}

const requestsOf = (name: keyof typeof SITES): FixtureRequest[] =>
  web.server.requests.filter((r) => r.headers['user-agent'] === `tarantula/dist-${name}` && r.path !== '/robots.txt');
const allPages = (name: keyof typeof SITES): string[] => SITES[name].flatMap((h) => Array.from({ length: PAGES[name] }, (_, k) => web.url(h, `/${k}`))).sort();

async function indexUrls(name: string): Promise<string[]> {
  return parseSeedIndex(await readFile(join(tmp.dir, name, 'index.txt'), 'utf8')).map((r) => r.url).sort();
}

/** Resolves once the server has answered `n` pages of the site. */
function afterPages(name: keyof typeof SITES, n: number, then: () => void): void {
  const timer = setInterval(() => {
    if (requestsOf(name).filter((r) => r.end > 0).length < n) return;
    clearInterval(timer);
    then();
  }, 5);
}

// One test at a time: each runs three processes of its own, on a machine with two cores.
describe('one crawl over several worker processes, on a real redis-server', { timeout: 60_000 }, () => {
  it('fetches every page exactly once with 2 workers, both working, into one index and summed stats', async () => {
    // One request at a time per worker, so that the first worker up cannot take the whole web before the second starts.
    const run = await crawl('once', ['--workers', '2', '--threads', '1']);
    expect(run.code, run.stderr).toBe(0);
    const pages = requestsOf('once').map((r) => web.url(r.host, r.path)).sort();
    expect(pages).toEqual(allPages('once'));
    expect(await indexUrls('once')).toEqual(allPages('once'));
    const parts = await fetchedByWorker(join(tmp.dir, 'once'));
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    const stats = JSON.parse(await readFile(join(tmp.dir, 'once', 'stats.json'), 'utf8')) as { documents: number; completed: boolean };
    expect(stats).toMatchObject({ documents: allPages('once').length, completed: true });
  });

  it('keeps every host polite across workers: no two requests overlap, and each waits min-delay after the last', async () => {
    const run = await crawl('polite', ['--workers', '2', '--threads', '1', '--min-delay', '100', '--max-delay', '100', '--lease', '1']);
    expect(run.code, run.stderr).toBe(0);
    const requests = requestsOf('polite');
    expect(requests.map((r) => web.url(r.host, r.path)).sort()).toEqual(allPages('polite'));
    for (const host of SITES.polite) {
      const mine = requests.filter((r) => r.host === host).sort((a, b) => a.start - b.start);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.start - mine[i - 1]!.end, `${host} ${mine[i]!.path}`).toBeGreaterThanOrEqual(100 - SLACK_MS);
    }
    // Hosts moved between the workers (a host goes back after one lease period, 1 s), so the rule held across them.
    const parts = await fetchedByWorker(join(tmp.dir, 'polite'));
    const hostsOfPart = parts.map((urls) => new Set(urls.map((u) => new URL(u).hostname)));
    expect(SITES.polite.filter((h) => hostsOfPart.every((set) => set.has(h))).length).toBeGreaterThan(0);
    // robots.txt is shared in Redis: the worker a host moves to does not ask for it again.
    const robots = web.server.requests.filter((r) => r.headers['user-agent'] === 'tarantula/dist-polite' && r.path === '/robots.txt');
    expect(robots.map((r) => r.host).sort()).toEqual([...SITES.polite].sort());
  });

  it('holds max-page-number across workers: each request starts with a permit from Redis, so never more', async () => {
    const run = await crawl('limit', ['--workers', '2', '--threads', '3', '--max-page-number', '25']);
    expect(run.code, run.stderr).toBe(0);
    const fetched = requestsOf('limit').length;
    expect(fetched).toBeLessThanOrEqual(25);
    // A worker that runs out of hosts while holding permits gives them back; if the other worker has
    // ended by then, those (at most its `threads`) are not used: the crawl ends that much short.
    expect(fetched).toBeGreaterThanOrEqual(25 - 3);
    expect(await indexUrls('limit')).toHaveLength(fetched);
  });

  it('lets a second command join the crawl (as another machine would): each page fetched once by one of them', async () => {
    const flags = ['--workers', '1', '--threads', '2', '--crawl-id', 'joined'];
    const [a, b] = await Promise.all([crawl('join', flags, { repository: 'join-a' }), crawl('join', flags, { repository: 'join-b' })]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const pages = requestsOf('join').map((r) => web.url(r.host, r.path)).sort();
    expect(pages).toEqual(allPages('join'));
    const parts = [...(await indexUrls('join-a')), ...(await indexUrls('join-b'))].sort();
    expect(parts).toEqual(allPages('join'));
  });

  it('loses nothing when a worker is SIGKILLed: its hosts come back after the lease, at most its in-flight pages twice', async () => {
    const second = onSecondWorker((pid) => afterPages('kill', 40, () => process.kill(pid, 'SIGKILL')));
    const run = await crawl('kill', ['--workers', '2', '--threads', '2', '--lease', '1', '--log-level', '1'], { onSpawn: second.onSpawn });
    expect(run.code, run.stderr).toBe(0);
    expect(logLines(run.stderr).some((l) => l.msg.startsWith('a worker died') && l.pid === second.pid())).toBe(true);
    const pages = requestsOf('kill').map((r) => web.url(r.host, r.path));
    expect([...new Set(pages)].sort()).toEqual(allPages('kill'));
    // Fetched again: what was in flight at the kill, fetching or still parsing and storing (2 × threads
    // units), and what ended during its last round trip to Redis (a page or two at this speed).
    expect(pages.length - new Set(pages).size).toBeLessThanOrEqual(3 * 2);
    expect(await indexUrls('kill')).toEqual(allPages('kill'));
  });

  it('stops every worker on SIGINT (exit 130) and resumes from Redis when run again, losing nothing', async () => {
    const first = await crawl('sigint', ['--workers', '2', '--threads', '2'], {
      onSpawn: (child: ChildProcess) => afterPages('sigint', 30, () => child.kill('SIGINT')),
    });
    expect(first.code, first.stderr).toBe(130);
    const stopped = JSON.parse(await readFile(join(tmp.dir, 'sigint', 'stats.json'), 'utf8')) as { documents: number; completed: boolean };
    expect(stopped.completed).toBe(false);
    expect(stopped.documents).toBeGreaterThan(0);
    const before = new Set(requestsOf('sigint').map((r) => web.url(r.host, r.path)));
    expect(before.size).toBeLessThan(allPages('sigint').length);
    const second = await crawl('sigint', ['--workers', '2', '--threads', '2']);
    expect(second.code, second.stderr).toBe(0);
    const pages = requestsOf('sigint').map((r) => web.url(r.host, r.path));
    expect([...new Set(pages)].sort()).toEqual(allPages('sigint'));
    expect(await indexUrls('sigint')).toEqual(allPages('sigint'));
  });

  it('holds the repository for the command and its workers: another command on it exits 1 naming the running one, and the shared crawl loses nothing', async () => {
    let supervisor: ChildProcess | undefined;
    const running = crawl('busy', ['--workers', '2', '--threads', '1'], { onSpawn: (c) => (supervisor = c), timeoutMs: 120_000 });
    try {
      await until(() => requestsOf('busy').some((r) => r.host === 'busy-0.test' && r.path === '/5'), 60_000);
      const repo = join(tmp.dir, 'busy');
      const alone = await runCli(['crawl', '--seed', web.url('busy-1.test', '/0'), '--repository', repo, '--log-level', '0', '--user-agent', 'tarantula/dist-busy-2', ...web.resolve()], { cwd: tmp.dir });
      const shared = await crawl('busy', ['--workers', '1'], { timeoutMs: 60_000 });
      for (const second of [alone, shared]) {
        expect(second.code, second.stderr).toBe(1);
        expect(second.stderr).toContain(`the repository ${repo} is in use by another crawl (pid ${supervisor!.pid} on `);
      }
      expect(web.server.requests.filter((r) => r.headers['user-agent'] === 'tarantula/dist-busy-2')).toEqual([]);
    } finally {
      holdBusy = false;
      for (const answer of heldBusy.splice(0)) answer();
    }
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(await indexUrls('busy')).toEqual(allPages('busy'));
  });

  it('refuses several workers without a shared frontier (exit 2)', async () => {
    const run = await runCli(['crawl', '--seed', 'http://nowhere.test/', '--repository', join(tmp.dir, 'alone'), '--workers', '2'], { cwd: tmp.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('workers: 2 worker processes need a shared frontier');
  });

  it('exits 1 naming the URL when Redis cannot be reached, and sends no request', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}/0`;
    const run = await runCli(['crawl', '--seed', 'http://nowhere.test/', '--repository', join(tmp.dir, 'down'), '--frontier', url, '--workers', '2'], { cwd: tmp.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot reach the Redis frontier at ${url}`);
    expect(run.stderr).not.toContain('worker started');
  });
});

describe('a Redis that goes away mid-crawl', { timeout: 60_000 }, () => {
  let own: TestRedis;
  beforeAll(async () => {
    own = await startRedis();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('stops the workers cleanly with a message (exit 1), and a rerun once it is back (AOF) loses nothing', async () => {
    const first = await crawl('gone', ['--workers', '2', '--threads', '2', '--lease', '2'], {
      url: own.url,
      onSpawn: () => afterPages('gone', 30, () => void own.stop()),
    });
    expect(first.code, first.stderr).toBe(1);
    expect(first.stderr).toContain(`lost the Redis frontier at ${own.url}`);
    await own.restart();
    const second = await crawl('gone', ['--workers', '2', '--threads', '2', '--lease', '2'], { url: own.url });
    expect(second.code, second.stderr).toBe(0);
    const pages = requestsOf('gone').map((r) => web.url(r.host, r.path));
    expect([...new Set(pages)].sort()).toEqual(allPages('gone'));
    expect(await indexUrls('gone')).toEqual(allPages('gone'));
  });
});

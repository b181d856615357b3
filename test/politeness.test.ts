import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRequest } from '../src/demo/fixture-server.js';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { HOSTILE_ROOT, hostHooks, html, linesAbout, logLines, readHostileStats, sendHtml, type Handler } from './support/hostile-web.js';
import { tempDir } from './support/temp-dir.js';

/** Timers may fire a little early relative to the server's clock; no more than this. */
const SLACK_MS = 15;

/** `host`, whose `/` links `/1` … `/n`; each page answers after `ms`, and robots.txt is `robots` (404 when undefined). */
function slowSite(host: string, n: number, ms: number, robots?: string): Handler {
  const links = Array.from({ length: n }, (_, i) => `/${i + 1}`);
  return (_req, res, path) => {
    if (path === '/robots.txt') {
      if (robots === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'Content-Type': 'text/plain' }).end(robots);
      return;
    }
    const timer = setTimeout(() => sendHtml(res, html(`${host} page ${path}`, path === '/' ? links : [])), ms);
    res.on('close', () => clearTimeout(timer));
  };
}

/** `/` links `/slow` (answered after 400 ms) and `/after`. */
const slowPage: Handler = (_req, res, path) => {
  if (path === '/robots.txt') return void res.writeHead(404).end();
  if (path !== '/slow') return sendHtml(res, html(path, path === '/' ? ['/slow', '/after'] : []));
  const timer = setTimeout(() => sendHtml(res, html('slow')), 400);
  res.on('close', () => clearTimeout(timer));
};

const HOSTS: Record<string, Handler> = {
  'p1.test': slowSite('p1.test', 4, 20),
  'p2.test': slowSite('p2.test', 4, 20),
  'p3.test': slowSite('p3.test', 4, 20),
  'slow.test': slowPage,
  'par.test': slowSite('par.test', 8, 150),
  'delayed.test': slowSite('delayed.test', 3, 0, 'User-agent: *\nCrawl-delay: 0.5\n'),
  'greedy.test': slowSite('greedy.test', 3, 0, 'User-agent: *\nCrawl-delay: 3\n'),
};

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('politeness', { root: HOSTILE_ROOT, hooks: hostHooks(HOSTS), extraHosts: Object.keys(HOSTS) });
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** The requests to `host`, in order of arrival. */
const to = (requests: readonly FixtureRequest[], host: string): FixtureRequest[] => requests.filter((r) => r.host === host);

/** The gaps between the end of each request and the start of the next (requests of one host). */
const gaps = (requests: readonly FixtureRequest[]): number[] => requests.slice(1).map((r, i) => r.start - requests[i]!.end);

/** The most requests in flight at once. */
function peakInFlight(requests: readonly FixtureRequest[]): number {
  const events = requests.flatMap((r) => [[r.start, 1], [r.end, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d));
  return peak;
}

async function crawl(name: string, seeds: string[], flags: string[]) {
  const repo = join(tmp.dir, name);
  const run = await web.crawl([...seeds.flatMap((s) => ['--seed', s]), '--repository', repo, '--log-level', '2', '--max-retries', '1', ...flags], { cwd: tmp.dir });
  expect(run.code, run.stderr).toBe(0);
  return { ...run, log: logLines(run.stderr), stats: await readHostileStats(repo) };
}

describe.concurrent('politeness, read from the server’s own request log', () => {
  it('with max-per-host 1, no two requests to a host overlap and each waits min-delay after the last, while hosts go on in parallel', async () => {
    const hosts = ['p1.test', 'p2.test', 'p3.test'];
    const run = await crawl('delays', hosts.map((h) => web.url(h)), ['--threads', '4', '--min-delay', '100', '--max-delay', '100', '--delay-factor', '0']);
    expect(run.stats.documents).toBe(15);
    for (const host of hosts) {
      const mine = to(run.requests, host);
      expect(mine.map((r) => r.path)).toEqual(['/robots.txt', '/', '/1', '/2', '/3', '/4']);
      expect(peakInFlight(mine)).toBe(1);
      for (const gap of gaps(mine.slice(1))) expect(gap).toBeGreaterThanOrEqual(100 - SLACK_MS);
    }
    // Hosts do not wait for each other: every host had started before any host was done (a load-proof
    // form of "in parallel": one after the other, the second would start after the first's last request).
    const firsts = hosts.map((h) => to(run.requests, h)[0]!.start);
    const lasts = hosts.map((h) => to(run.requests, h).at(-1)!.end);
    expect(Math.max(...firsts)).toBeLessThan(Math.min(...lasts));
  });

  it('counts the robots.txt fetch as a request to the host: the first page waits min-delay after it', async () => {
    const run = await crawl('robots-delay', [web.url('p1.test')], ['--threads', '2', '--min-delay', '200', '--max-delay', '200', '--delay-factor', '0', '--max-page-number', '1']);
    const [robots, home] = to(run.requests, 'p1.test');
    expect([robots?.path, home?.path]).toEqual(['/robots.txt', '/']);
    expect(home!.start - robots!.end).toBeGreaterThanOrEqual(200 - SLACK_MS);
  });

  it('waits delay-factor × the duration of the last fetch: long after a slow page, briefly after a fast one', async () => {
    const run = await crawl('factor', [web.url('slow.test')], ['--threads', '1', '--delay-factor', '2', '--min-delay', '0', '--max-delay', '5000']);
    const pagesOnly = to(run.requests, 'slow.test').filter((r) => r.path !== '/robots.txt');
    expect(pagesOnly.map((r) => r.path)).toEqual(['/', '/slow', '/after']);
    const [afterHome = NaN, afterSlow = NaN] = gaps(pagesOnly);
    const ms = (path: string): number => linesAbout(run.log, web.url('slow.test', path)).find((l) => l.msg === 'fetched')!.ms as number;
    expect(ms('/slow')).toBeGreaterThanOrEqual(400);
    expect(afterSlow).toBeGreaterThanOrEqual(2 * ms('/slow') - SLACK_MS);
    expect(afterHome).toBeGreaterThanOrEqual(2 * ms('/') - SLACK_MS);
    // Measured on the crawler's own clock, so a gap only a little longer than the delay it asked for.
    expect(afterHome).toBeLessThan(2 * ms('/') + 500);
    expect(afterHome).toBeLessThan(afterSlow);
  });

  it('honours a robots.txt Crawl-delay, and skips a host asking for more than max-crawl-delay, saying so', async () => {
    const run = await crawl('crawl-delay', [web.url('delayed.test'), web.url('greedy.test')], ['--threads', '2', '--max-crawl-delay', '2']);
    const delayed = to(run.requests, 'delayed.test');
    expect(delayed.map((r) => r.path)).toEqual(['/robots.txt', '/', '/1', '/2', '/3']);
    for (const gap of gaps(delayed.slice(1))) expect(gap).toBeGreaterThanOrEqual(500 - SLACK_MS);
    expect(to(run.requests, 'greedy.test').map((r) => r.path)).toEqual(['/robots.txt']);
    const skipped = linesAbout(run.log, web.url('greedy.test'));
    expect(skipped).toContainEqual(expect.objectContaining({ reason: 'crawl-delay', msg: expect.stringMatching(/Crawl-delay 3 s.*max-crawl-delay/) }));
    expect(run.stats.droppedByReason['crawl-delay']).toBe(1);
  });

  it('with max-per-host 2, has two requests to a host in flight at once, never three', async () => {
    const run = await crawl('per-host-2', [web.url('par.test')], ['--threads', '4', '--max-per-host', '2']);
    const mine = to(run.requests, 'par.test').filter((r) => r.path !== '/robots.txt');
    expect(mine).toHaveLength(9);
    expect(peakInFlight(mine)).toBe(2);
    expect(run.stats.documents).toBe(9);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRequest } from '../src/demo/fixture-server.js';
import { startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import {
  GOOD_PAGES,
  HOSTILE_ROOT,
  counted,
  hostHooks,
  html,
  linesAbout,
  logLines,
  noRobots,
  readHostileStats,
  resetConnection,
  statusForever,
  type HostileStats,
  type LogLine,
} from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

const SLACK_MS = 15;
/** The HTTP-date date.test asks to be retried at, set when it answers. */
let retryAt = 0;

const HOSTS = {
  // 429 with Retry-After in seconds, then the page.
  'secs.test': noRobots(counted((n) => (n === 0 ? { status: 429, headers: { 'Retry-After': '1' }, body: html('slow down') } : { status: 200, body: html('secs page') }))),
  // 503 with Retry-After as an HTTP-date at least 1.5 s ahead, then the page.
  'date.test': noRobots(
    counted((n) => {
      if (n > 0) return { status: 200, body: html('date page') };
      retryAt = Math.ceil((Date.now() + 1500) / 1000) * 1000;
      return { status: 503, headers: { 'Retry-After': new Date(retryAt).toUTCString() }, body: html('maintenance') };
    }),
  ),
  // 503 twice without Retry-After, then the page: exponential back-off.
  'backoff.test': noRobots(counted((n) => (n < 2 ? { status: 503, body: html('busy') } : { status: 200, body: html('backoff page') }))),
  'down.test': noRobots(statusForever(500)),
  'reset.test': noRobots(resetConnection),
};

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun;
let log: LogLine[];
let stats: HostileStats;
let indexed: string[];
beforeAll(async () => {
  web = await startWeb('retry', { root: HOSTILE_ROOT, hooks: hostHooks(HOSTS), extraHosts: Object.keys(HOSTS) });
  tmp = await tempDir();
  const repo = join(tmp.dir, 'repo');
  const seeds = [...Object.keys(HOSTS), 'good.test'].flatMap((h) => ['--seed', web.url(h)]);
  run = await web.crawl([...seeds, '--repository', repo, '--log-level', '2', '--max-retries', '2', '--threads', '4', '--header-timeout', '500', '--body-timeout', '500'], { cwd: tmp.dir });
  log = logLines(run.stderr);
  stats = await readHostileStats(repo);
  indexed = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => r.url);
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const home = (host: string): FixtureRequest[] => run.requests.filter((r) => r.host === host && r.path === '/');
const gaps = (requests: readonly FixtureRequest[]): number[] => requests.slice(1).map((r, i) => r.start - requests[i]!.end);

describe('429, 503 and 5xx: retried with back-off, then given up', () => {
  it('terminates, and the crawl goes on: every page of good.test is recorded', () => {
    expect(run.code, run.stderr).toBe(0);
    for (const path of GOOD_PAGES) expect(indexed).toContain(web.url('good.test', path === '/' ? '/' : path));
  });

  it('429 with Retry-After: 1 waits at least a second, then records the page', () => {
    const tries = home('secs.test');
    expect(tries.map((r) => r.status)).toEqual([429, 200]);
    expect(gaps(tries)[0]).toBeGreaterThanOrEqual(1000 - SLACK_MS);
    expect(indexed).toContain(web.url('secs.test'));
    expect(linesAbout(log, web.url('secs.test'))).toContainEqual(expect.objectContaining({ code: 'http-429', msg: expect.stringContaining('Retry-After 1 s') }));
  });

  it('503 with Retry-After as an HTTP-date waits until that date, then records the page', () => {
    const tries = home('date.test');
    expect(tries.map((r) => r.status)).toEqual([503, 200]);
    expect(tries[1]!.start).toBeGreaterThanOrEqual(retryAt - SLACK_MS);
    expect(indexed).toContain(web.url('date.test'));
    expect(linesAbout(log, web.url('date.test'))).toContainEqual(expect.objectContaining({ code: 'http-503' }));
  });

  it('503 without Retry-After backs off exponentially: about 1 s, then about 2 s (with jitter)', () => {
    const tries = home('backoff.test');
    expect(tries.map((r) => r.status)).toEqual([503, 503, 200]);
    const [first, second] = gaps(tries);
    expect(first).toBeGreaterThanOrEqual(500 - SLACK_MS);
    expect(second).toBeGreaterThanOrEqual(1000 - SLACK_MS);
    expect(indexed).toContain(web.url('backoff.test'));
  });

  it('a 500 forever is tried 1 + max-retries times, then given up with a warning naming the URL and the code', () => {
    expect(home('down.test').map((r) => r.status)).toEqual([500, 500, 500]);
    expect(linesAbout(log, web.url('down.test'))).toContainEqual(expect.objectContaining({ level: 40, code: 'http-500', status: 500, attempts: 3 }));
    expect(indexed).not.toContain(web.url('down.test'));
  });

  it('a connection reset is a network error: retried max-retries times, then given up', () => {
    expect(home('reset.test')).toHaveLength(3);
    expect(linesAbout(log, web.url('reset.test'))).toContainEqual(expect.objectContaining({ level: 40, code: 'reset', attempts: 3 }));
  });

  it('counts it all in stats.json', () => {
    expect(stats.failuresByCode).toEqual({ 'http-500': 1, reset: 1 });
    expect(stats.retries).toBe(1 + 1 + 2 + 2 + 2);
    expect(stats.documents).toBe(GOOD_PAGES.length + 3);
  });
});

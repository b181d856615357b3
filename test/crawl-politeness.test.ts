import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRequest } from '../src/demo/fixture-server.js';
import { readStats, startWeb, type E2eWeb } from './support/e2e-web.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/politeness: one.test and two.test (a home page and three pages each), delayed.test
 * (robots.txt Crawl-delay: 1) and skipped.test (Crawl-delay: 100, above the default max-crawl-delay).
 */
const DELAY_MS = 250;
/** Timers may fire a little early relative to the server's clock; no more than this. */
const SLACK_MS = 15;

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('politeness');
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** The gaps between the end of each request to `host` and the start of the next one. */
function gaps(requests: readonly FixtureRequest[], host: string): number[] {
  const mine = requests.filter((r) => r.host === host);
  return mine.slice(1).map((r, i) => r.start - mine[i]!.end);
}

describe.concurrent('politeness', () => {
  it('waits min-delay between requests to a host, one at a time, while other hosts go on in parallel', async () => {
    const flags = ['--min-delay', String(DELAY_MS), '--max-delay', String(DELAY_MS), '--delay-factor', '1', '--threads', '4'];
    const run = await web.crawl(['--seed', web.url('one.test'), '--seed', web.url('two.test'), '--repository', join(tmp.dir, 'delays'), '--log-level', '0', ...flags], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.pages).toHaveLength(8);
    for (const host of ['one.test', 'two.test']) {
      const pages = run.requests.filter((r) => r.host === host && r.path !== '/robots.txt');
      expect(pages.map((r) => r.path)).toEqual(['/', '/1.html', '/2.html', '/3.html']);
      for (const gap of gaps(pages, host)) expect(gap).toBeGreaterThanOrEqual(DELAY_MS - SLACK_MS);
      for (const gap of gaps(pages, host)) expect(gap).toBeLessThan(2_000); // min-delay's default, 3 s, would show
    }
    const home = (host: string) => run.requests.find((r) => r.host === host && r.path === '/')!;
    expect(Math.abs(home('one.test').start - home('two.test').start)).toBeLessThan(DELAY_MS);
  });

  it('honours a robots.txt Crawl-delay, and skips a host whose Crawl-delay is above max-crawl-delay', async () => {
    const repo = join(tmp.dir, 'crawl-delay');
    const run = await web.crawl(['--seed', web.url('delayed.test'), '--seed', web.url('skipped.test'), '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(0);
    const delayed = run.requests.filter((r) => r.host === 'delayed.test');
    expect(delayed.map((r) => r.path)).toEqual(['/robots.txt', '/', '/1.html']);
    expect(gaps(delayed.slice(1), 'delayed.test')[0]).toBeGreaterThanOrEqual(1000 - SLACK_MS);
    expect(run.requests.filter((r) => r.host === 'skipped.test').map((r) => r.path)).toEqual(['/robots.txt']);
    expect((await readStats(repo)).droppedByReason['crawl-delay']).toBe(1);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStats, startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/robots: rules.test has groups for another crawler, for tarantula and for `*`, and
 * links pages of its own and the home pages of four hosts: norobots.test (no robots.txt: 404),
 * forbidden.test (403), redirected.test (robots.txt redirects to rules that block one page) and
 * broken.test, whose robots.txt this test's server hook answers with 500.
 */
let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun & { records: SeedRecord[]; repo: string };
/** A crawl seeded at broken.test with one retry, run alongside the main one (its back-off takes a while). */
let retried: Promise<CrawlRun>;

beforeAll(async () => {
  web = await startWeb('robots', {
    hooks: {
      handle: (_req, res, at) => {
        if (at.host !== 'broken.test' || at.path !== '/robots.txt') return false;
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('temporarily broken\n');
        return true;
      },
    },
  });
  tmp = await tempDir();
  const repo = join(tmp.dir, 'repo');
  const retryArgs = ['--seed', web.url('broken.test'), '--max-retries', '1', '--repository', join(tmp.dir, 'retry'), '--log-level', '0'];
  retried = web.crawl(retryArgs, { cwd: tmp.dir });
  const args = ['--seed', web.url('rules.test'), '--scope', 'free-spanning', '--max-retries', '0', '--repository', repo, '--log-level', '0'];
  const crawled = await web.crawl(args, { cwd: tmp.dir });
  run = { ...crawled, records: parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')), repo };
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const requested = (host: string): string[] => run.requests.filter((r) => r.host === host).map((r) => r.path);

describe('robots.txt', () => {
  it('completes with exit status 0', () => {
    expect(run.code, run.stderr).toBe(0);
  });

  it('obeys the group of its own product token: disallowed paths are never requested, a longer Allow wins', () => {
    expect(requested('rules.test')).toEqual(['/robots.txt', '/', '/private/open.html', '/public.html', '/script.cgi.html']);
  });

  it('still lists the links to disallowed pages', () => {
    const home = run.records.find((r) => new URL(r.url).hostname === 'rules.test');
    expect(home?.links.map((l) => l.url)).toEqual([
      web.url('rules.test', '/private/secret.html'),
      web.url('rules.test', '/private/open.html'),
      web.url('rules.test', '/public.html'),
      web.url('rules.test', '/script.cgi'),
      web.url('rules.test', '/script.cgi.html'),
      web.url('norobots.test'),
      web.url('forbidden.test'),
      web.url('redirected.test'),
      web.url('broken.test'),
      web.url('broken.test', '/page.html'),
    ]);
  });

  it('allows everything when robots.txt is 404 or 403', () => {
    expect(requested('norobots.test')).toEqual(['/robots.txt', '/', '/page.html']);
    expect(requested('forbidden.test')).toEqual(['/robots.txt', '/', '/page.html']);
  });

  it('follows a redirected robots.txt and obeys the rules it leads to', () => {
    expect(requested('redirected.test')).toEqual(['/robots.txt', '/rules.txt', '/', '/allowed.html']);
  });

  it('drops the URLs of a host whose robots.txt fails with 500, as robots-unavailable', async () => {
    expect(requested('broken.test')).toEqual(['/robots.txt']);
    const stats = await readStats(run.repo);
    expect(stats.droppedByReason['robots-unavailable']).toBe(2);
    expect(run.records.some((r) => new URL(r.url).hostname === 'broken.test')).toBe(false);
  });

  it('retries a failing robots.txt max-retries times, with a back-off, before dropping the host', async () => {
    const { code, stderr, requests: tries } = await retried;
    expect(code, stderr).toBe(0);
    expect(tries.map((r) => r.host + r.path)).toEqual(['broken.test/robots.txt', 'broken.test/robots.txt']);
    expect(tries[1]!.start - tries[0]!.end).toBeGreaterThanOrEqual(400);
    expect((await readStats(join(tmp.dir, 'retry'))).droppedByReason['robots-unavailable']).toBe(1);
  });
});

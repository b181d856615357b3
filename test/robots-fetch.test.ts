import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import {
  GOOD_PAGES,
  HOSTILE_ROOT,
  closedPort,
  hostHooks,
  html,
  linesAbout,
  logLines,
  readHostileStats,
  sendHtml,
  silent,
  type Handler,
  type HostileStats,
  type LogLine,
} from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/** robots.txt just under 600 KiB: `Disallow: /early` at the start, `Disallow: /late` after 500 KiB of comments. */
const BIG_ROBOTS = `User-agent: *\nDisallow: /early\n${'# padding padding padding padding padding padding padding padding\n'.repeat(9000)}Disallow: /late\n`;

/**
 * A host whose robots.txt is answered by `robots` (and the redirect targets `/rN`), whose `/` links
 * `/private/x.html`, `/public.html`, `/early` and `/late`, and whose other paths are pages.
 */
function site(host: string, robots: Handler): Handler {
  return (req, res, path) => {
    if (path === '/robots.txt' || /^\/r\d+$/.test(path)) return robots(req, res, path);
    sendHtml(res, html(`${host} ${path}`, path === '/' ? ['/private/x.html', '/public.html', '/early', '/late'] : []));
  };
}

const text = (body: string, status = 200): Handler => (_req, res) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body);

/** robots.txt redirects `hops` times (`/robots.txt` → `/r1` → … → `/rN`), then says Disallow: /private/. */
function redirected(hops: number): Handler {
  return (_req, res, path) => {
    const n = path === '/robots.txt' ? 0 : Number(path.slice(2));
    if (n < hops) res.writeHead(301, { Location: `/r${n + 1}` }).end();
    else res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
  };
}

/** robots.txt answered after 300 ms, so that concurrent first requests arrive while it is being fetched. */
const slowRobots: Handler = (_req, res) => {
  setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'), 300);
};

const HOSTS: Record<string, Handler> = {
  'shared.test': site('shared.test', slowRobots),
  'hops5.test': site('hops5.test', redirected(5)),
  'hops6.test': site('hops6.test', redirected(6)),
  'gone.test': site('gone.test', text('gone\n', 410)),
  'broken.test': site('broken.test', text('unavailable\n', 503)),
  'timeout.test': site('timeout.test', silent),
  'big.test': site('big.test', text(BIG_ROBOTS)),
  'ttl.test': site('ttl.test', text('User-agent: *\nDisallow: /private/\n')),
};

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let refusedPort: number;
let run: CrawlRun;
let log: LogLine[];
let stats: HostileStats;
let indexed: string[];
let ttlRun: CrawlRun;

beforeAll(async () => {
  web = await startWeb('robots-fetch', { root: HOSTILE_ROOT, hooks: hostHooks(HOSTS), extraHosts: Object.keys(HOSTS) });
  tmp = await tempDir();
  refusedPort = await closedPort();
  const repo = join(tmp.dir, 'repo');
  const seeds = [
    ...['/', '/public.html', '/early', '/late'].map((p) => web.url('shared.test', p)),
    ...['hops5.test', 'hops6.test', 'gone.test', 'broken.test', 'timeout.test', 'big.test', 'good.test'].map((h) => web.url(h)),
    `http://refused.test:${refusedPort}/`,
  ];
  const flags = ['--threads', '6', '--max-per-host', '4', '--max-retries', '1', '--header-timeout', '500', '--body-timeout', '500', '--connect-timeout', '500'];
  const ttlFlags = ['--robots-ttl', '1', '--min-delay', '400', '--max-delay', '400', '--delay-factor', '0'];
  [run, ttlRun] = await Promise.all([
    web.crawl([...seeds.flatMap((s) => ['--seed', s]), '--resolve', `refused.test:${refusedPort}:127.0.0.1`, '--repository', repo, '--log-level', '2', ...flags], { cwd: tmp.dir }),
    web.crawl(['--seed', web.url('ttl.test'), '--repository', join(tmp.dir, 'ttl'), '--log-level', '0', ...ttlFlags], { cwd: tmp.dir }),
  ]);
  log = logLines(run.stderr);
  stats = await readHostileStats(repo);
  indexed = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => r.url);
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const requested = (host: string, requests = run.requests): string[] => requests.filter((r) => r.host === host).map((r) => r.path);

describe('robots.txt, fetched as RFC 9309 asks', () => {
  it('terminates, and the crawl goes on: every page of good.test is recorded', () => {
    expect(run.code, run.stderr).toBe(0);
    for (const path of GOOD_PAGES) expect(indexed).toContain(web.url('good.test', path));
  });

  it('is fetched once per origin, even when several first requests to it are in flight together', () => {
    const paths = requested('shared.test');
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(paths.slice(1).sort()).toEqual(['/', '/early', '/late', '/public.html']);
    const robots = run.requests.find((r) => r.host === 'shared.test')!;
    for (const r of run.requests.filter((q) => q.host === 'shared.test' && q.path !== '/robots.txt')) expect(r.start).toBeGreaterThanOrEqual(robots.end);
  });

  it('follows five redirects to the rules and obeys them', () => {
    expect(requested('hops5.test').slice(0, 6)).toEqual(['/robots.txt', '/r1', '/r2', '/r3', '/r4', '/r5']);
    expect(requested('hops5.test')).not.toContain('/private/x.html');
    expect(requested('hops5.test')).toContain('/public.html');
    expect(linesAbout(log, web.url('hops5.test', '/private/x.html'))).toContainEqual(expect.objectContaining({ reason: 'robots' }));
  });

  it('after more than five redirects, takes robots.txt as unavailable: everything allowed', () => {
    expect(requested('hops6.test').slice(0, 6)).toEqual(['/robots.txt', '/r1', '/r2', '/r3', '/r4', '/r5']);
    expect(requested('hops6.test')).not.toContain('/r6');
    expect(requested('hops6.test')).toContain('/private/x.html');
  });

  it('allows everything when robots.txt answers 4xx (410)', () => {
    expect(requested('gone.test')).toContain('/private/x.html');
    expect(indexed).toContain(web.url('gone.test', '/private/x.html'));
  });

  it.each([
    ['broken.test', '503'],
    ['timeout.test', 'a timeout'],
  ])('drops the URLs of %s (robots.txt: %s) as robots-unavailable, after retrying robots.txt', (host) => {
    expect(requested(host)).toEqual(['/robots.txt', '/robots.txt']);
    expect(linesAbout(log, web.url(host))).toContainEqual(expect.objectContaining({ level: 40, reason: 'robots-unavailable' }));
  });

  it('drops the URLs of a host that refuses connections as robots-unavailable', () => {
    expect(linesAbout(log, `http://refused.test:${refusedPort}/`)).toContainEqual(expect.objectContaining({ level: 40, reason: 'robots-unavailable' }));
  });

  it('counts robots-unavailable and robots drops in stats.json', () => {
    expect(stats.droppedByReason['robots-unavailable']).toBe(3);
    // /private/x.html of shared.test and hops5.test, /early of big.test.
    expect(stats.droppedByReason.robots).toBe(3);
  });

  it('parses only the first 500 KiB: a Disallow before it holds, one after it is ignored', () => {
    expect(BIG_ROBOTS.indexOf('Disallow: /late')).toBeGreaterThan(500 * 1024);
    expect(requested('big.test')).not.toContain('/early');
    expect(requested('big.test')).toContain('/late');
  });

  it('fetches robots.txt again when robots-ttl has passed', () => {
    expect(ttlRun.code, ttlRun.stderr).toBe(0);
    const paths = requested('ttl.test', ttlRun.requests);
    expect(paths.filter((p) => p !== '/robots.txt')).toEqual(['/', '/public.html', '/early', '/late']);
    expect(paths.filter((p) => p === '/robots.txt').length).toBeGreaterThanOrEqual(2);
  });
});

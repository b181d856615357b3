import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStats, startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/redirects/redir.test (its _headers.json): the home page links `moved` (301 to
 * target.html, which links deeper.html), `chain1` (302, then 307, to chain-end.html), `out` (to
 * elsewhere.test), `blocked` (into a folder robots.txt disallows), `loop1` (⇄ loop2), `hops1` (seven
 * redirects in a row before hops-end.html) and `again` (308 to target.html, already seen). The crawl
 * is host-scope with max-depth 1 and the default max-redirects (5).
 */
const EXPECTED_REQUESTS = [
  '/robots.txt', '/',
  '/moved', '/target.html',
  '/chain1', '/chain2', '/chain-end.html',
  '/out',
  '/blocked',
  '/loop1', '/loop2',
  '/hops1', '/hops2', '/hops3', '/hops4', '/hops5', '/hops6',
  '/again',
];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun;
let repo: string;
let records: SeedRecord[];
beforeAll(async () => {
  web = await startWeb('redirects');
  tmp = await tempDir();
  repo = join(tmp.dir, 'repo');
  run = await web.crawl(['--seed', web.url('redir.test'), '--scope', 'host-scope', '--max-depth', '1', '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
  records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const path = (url: string): string => new URL(url).pathname;

describe('redirects', () => {
  it('are followed as new URLs through scope, robots.txt and the seen-set, each URL requested once', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests.filter((r) => r.host !== 'redir.test')).toEqual([]);
    expect(run.requests.map((r) => r.path).sort()).toEqual([...EXPECTED_REQUESTS].sort());
  });

  it('stop after max-redirects from one URL', () => {
    const paths = run.requests.map((r) => r.path);
    expect(paths).toContain('/hops6');
    expect(paths).not.toContain('/hops7');
    expect(paths).not.toContain('/hops-end.html');
  });

  it('keep the depth of the URL that redirected: a target one link from the seed is fetched under max-depth 1, its links are not', () => {
    expect(run.requests.map((r) => r.path)).toContain('/target.html');
    expect(run.requests.map((r) => r.path)).not.toContain('/deeper.html');
  });

  it('give no record themselves; the target is indexed with the original URL that started the chain', () => {
    expect(records.map((r) => [path(r.url), r.originalUrl]).sort()).toEqual([
      ['/', web.url('redir.test')],
      ['/chain-end.html', 'chain1'],
      ['/target.html', 'moved'],
    ]);
  });

  it('are still listed as links of the page that has them', () => {
    const home = records.find((r) => path(r.url) === '/');
    expect(home?.links.map((l) => path(l.url))).toEqual(['/moved', '/chain1', '/out', '/blocked', '/loop1', '/hops1', '/again']);
  });

  it('are counted in stats.json: 13 followed, one too many (a failure), targets dropped by reason', async () => {
    const stats = await readStats(repo);
    expect(stats).toMatchObject({ documents: 3, redirects: 13, failures: 1 });
    expect(stats.droppedByReason).toMatchObject({ 'out-of-scope': 1, robots: 1 });
  });
});

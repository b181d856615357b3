import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endlessPages } from './support/endless-web.js';
import { readStats, startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/** fixtures/e2e/order/tree.test in breadth-first order, with each page's depth. */
const BFS: [string, number][] = [
  ['/', 0], ['/a/', 1], ['/b/', 1], ['/c.html', 1], ['/a/1.html', 2], ['/a/2.html', 2], ['/b/1.html', 2], ['/a/1/deep.html', 3],
];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let runs = 0;
beforeAll(async () => {
  web = await startWeb('order', { hooks: endlessPages('slow.test', 100), extraHosts: ['slow.test'] });
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** Crawls from `seed` with `flags`; the pages requested (host/path, no robots.txt) and the paths indexed. */
async function crawl(seed: string, flags: string[]) {
  const repo = join(tmp.dir, `run-${++runs}`);
  const started = Date.now();
  const result = await web.crawl(['--seed', seed, '--repository', repo, '--log-level', '0', ...flags], { cwd: tmp.dir });
  const ms = Date.now() - started;
  const requested = result.requests.filter((r) => r.path !== '/robots.txt').map((r) => r.path);
  const records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
  return { ...result, ms, repo, requested, indexed: records.map((r) => new URL(r.url).pathname) };
}

describe('limits end the crawl with exit status 0', () => {
  it.concurrent.each([1, 4])('max-page-number %i fetches exactly that many documents, the first ones in BFS order', async (n) => {
    const run = await crawl(web.url('tree.test'), ['--max-page-number', String(n), '--threads', '1']);
    expect(run.code, run.stderr).toBe(0);
    const first = BFS.slice(0, n).map(([p]) => p);
    expect(run.requested).toEqual(first);
    expect(run.indexed).toEqual(first);
    expect((await readStats(run.repo)).documents).toBe(n);
  });

  it.concurrent('max-page-number leaves nothing out for good: the same command without it is a recrawl that indexes every page', async () => {
    const repo = join(tmp.dir, 'limited-then-whole');
    const flags = ['--seed', web.url('tree.test'), '--repository', repo, '--log-level', '0', '--threads', '1'];
    const limited = await web.crawl([...flags, '--max-page-number', '3'], { cwd: tmp.dir });
    expect(limited.code, limited.stderr).toBe(0);
    expect(await readStats(repo)).toMatchObject({ documents: 3, completed: true });
    expect((await readStats(repo)).pending).toBeGreaterThan(0);
    const whole = await web.crawl(flags, { cwd: tmp.dir });
    expect(whole.code, whole.stderr).toBe(0);
    const indexed = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => new URL(r.url).pathname);
    expect(indexed.sort()).toEqual(BFS.map(([path]) => path).sort());
  });

  it.concurrent('max-page-number holds with many threads in flight', async () => {
    const run = await crawl(web.url('slow.test'), ['--max-page-number', '6', '--threads', '8', '--max-per-host', '8']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.requested).toHaveLength(6);
    expect(run.indexed).toHaveLength(6);
  });

  it.concurrent.each([2, 0])('max-depth %i fetches the pages at most that many links from the seed (0: no limit)', async (depth) => {
    const run = await crawl(web.url('tree.test'), ['--max-depth', String(depth), '--threads', '1']);
    expect(run.code, run.stderr).toBe(0);
    const within = BFS.filter(([, d]) => depth === 0 || d <= depth).map(([p]) => p);
    expect(run.requested).toEqual(within);
    expect(run.indexed).toEqual(within);
  });

  it.concurrent('time-limit stops a crawl that would never end, flushing the index and stats', async () => {
    const run = await crawl(web.url('slow.test'), ['--time-limit', '2', '--threads', '2', '--max-per-host', '2']);
    expect(run.code, run.stderr).toBe(0);
    const starts = run.requests.map((r) => r.start);
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(700); // it fetched for most of its two seconds, however slowly it started
    expect(run.ms).toBeLessThan(15_000); // it ended: the server would go on forever
    expect(run.indexed.length).toBeGreaterThan(0);
    expect((await readStats(run.repo)).documents).toBeGreaterThanOrEqual(run.indexed.length);
  });
});

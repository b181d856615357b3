import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureHooks } from '../src/demo/fixture-server.js';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { startRedisCluster, type TestCluster } from './support/redis-cluster.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/priorities/linked.test (as in crawl-priorities.test.ts): / → x1 … x6 (depth 1); each
 * xN → rare-N (only xN links there) and popular (all six link there), both at depth 2, rare-N first
 * in document order. Popular is first found at level 1; its fourth in-link lifts it to level 2.
 */
const DEPTH_1 = [1, 2, 3, 4, 5, 6].map((i) => `/x${i}.html`);
const RARE = [1, 2, 3, 4, 5, 6].map((i) => `/rare-${i}.html`);

/**
 * many.test, one host with hundreds of URLs waiting in Redis: / → /s/1 … /s/200 (depth 1); each
 * /s/N → /rare/N (only /s/N links there) and /popular (all 200 link there), both at depth 2, the rare
 * page first in document order. A worker takes a host's requests 64 at a time: /popular, found at
 * level 1 behind the sections still in Redis and /rare/1, must move up there when its fourth in-link lifts it.
 */
const SECTIONS = 200;
const MANY = 'many.test';
const manyPages: FixtureHooks = {
  handle: (_req, res, at) => {
    if (at.host !== MANY) return false;
    const page = (links: string[]): void => {
      const body = `<!doctype html><title>${at.path}</title>${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}\n`;
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(body) }).end(body);
    };
    const section = /^\/s\/(\d+)$/.exec(at.path)?.[1];
    if (at.path === '/') page(Array.from({ length: SECTIONS }, (_, i) => `/s/${i + 1}`));
    else if (section !== undefined) page([`/rare/${section}`, '/popular']);
    else if (/^\/rare\/\d+$/.test(at.path) || at.path === '/popular') page([]);
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    return true;
  },
};
const MANY_PAGES = ['/', '/popular', ...Array.from({ length: SECTIONS }, (_, i) => [`/s/${i + 1}`, `/rare/${i + 1}`]).flat()].sort();

let web: E2eWeb;
let redis: TestRedis;
let cluster: TestCluster;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('priorities', { hooks: manyPages, extraHosts: [MANY] });
  redis = await startRedis();
  cluster = await startRedisCluster(3);
  tmp = await tempDir();
}, 120_000);
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await cluster?.close();
  await tmp?.remove();
});

/** A shared crawl of many.test with two workers of one thread each; the pages in the order they were fetched. */
async function crawlMany(frontier: string, crawlId: string): Promise<string[]> {
  const run = await web.crawl(
    ['--seed', web.url(MANY), '--threads', '1', '--frontier', frontier, '--workers', '2', '--crawl-id', crawlId, '--repository', join(tmp.dir, crawlId), '--log-level', '0'],
    { cwd: tmp.dir, timeoutMs: 120_000 },
  );
  expect(run.code, run.stderr).toBe(0);
  return run.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
}

/** /popular came before every rare page of its depth. */
function popularFirst(paths: readonly string[]): void {
  expect([...paths].sort()).toEqual(MANY_PAGES);
  const popular = paths.indexOf('/popular');
  const rareBefore = paths.slice(0, popular).filter((p) => p.startsWith('/rare/'));
  expect(rareBefore).toEqual([]);
}

describe('priority levels in a crawl shared through Redis (threads 1, no delays)', () => {
  it('the page linked from every section is fetched ahead of its depth\'s rarely linked pages', async () => {
    const run = await web.crawl(
      ['--seed', web.url('linked.test'), '--threads', '1', '--frontier', redis.url, '--workers', '2', '--crawl-id', 'shared-levels', '--repository', join(tmp.dir, 'shared'), '--log-level', '0'],
      { cwd: tmp.dir, timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const paths = run.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
    expect([...paths].sort()).toEqual(['/', ...DEPTH_1, ...RARE, '/popular.html'].sort());
    const popular = paths.indexOf('/popular.html');
    for (const rare of RARE) expect(paths.indexOf(rare), rare).toBeGreaterThan(popular);
  }, 180_000);

  it('moves the page linked from every section up while it waits in Redis, behind hundreds of its host\'s URLs', async () => {
    popularFirst(await crawlMany(redis.url, 'shared-many'));
  }, 180_000);

  it('does so on a 3-master Redis Cluster too', async () => {
    popularFirst(await crawlMany(cluster.url(0), 'cluster-many'));
  }, 180_000);
});

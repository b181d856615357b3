import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/priorities/linked.test (as in crawl-priorities.test.ts): / → x1 … x6 (depth 1); each
 * xN → rare-N (only xN links there) and popular (all six link there), both at depth 2, rare-N first
 * in document order. Popular is first found at level 1; its fourth in-link lifts it to level 2.
 */
const DEPTH_1 = [1, 2, 3, 4, 5, 6].map((i) => `/x${i}.html`);
const RARE = [1, 2, 3, 4, 5, 6].map((i) => `/rare-${i}.html`);

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('priorities');
  redis = await startRedis();
  tmp = await tempDir();
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

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
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { tempDir } from './support/temp-dir.js';
import { join } from 'node:path';

/**
 * fixtures/e2e/priorities/linked.test: / → x1 … x6 (depth 1); each xN → rare-N (only xN links
 * there) and popular (all six link there), both at depth 2, rare-N first in document order.
 */
const DEPTH_1 = [1, 2, 3, 4, 5, 6].map((i) => `/x${i}.html`);
const RARE = [1, 2, 3, 4, 5, 6].map((i) => `/rare-${i}.html`);

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('priorities');
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

async function pathsFetched(name: string, flags: readonly string[]): Promise<string[]> {
  const run = await web.crawl(['--seed', web.url('linked.test'), '--threads', '1', '--repository', join(tmp.dir, name), '--log-level', '0', ...flags], { cwd: tmp.dir });
  expect(run.code, run.stderr).toBe(0);
  return run.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
}

describe.concurrent('front queues: priorities by in-links (threads 1, no delays)', () => {
  it('with the default 4 levels, the page linked from every section is fetched ahead of its depth\'s rarely linked pages', async () => {
    const paths = await pathsFetched('levels-4', []);
    expect([...paths].sort()).toEqual(['/', ...DEPTH_1, ...RARE, '/popular.html'].sort());
    const popular = paths.indexOf('/popular.html');
    for (const rare of RARE) expect(paths.indexOf(rare), rare).toBeGreaterThan(popular);
    // Its fourth in-link (on x4) lifts it to level 2, which the selector serves before level 1's x5.
    expect(paths.slice(0, 6)).toEqual(['/', '/x1.html', '/x2.html', '/x3.html', '/x4.html', '/popular.html']);
  });

  it('with one level, the order is exactly breadth-first: popular after rare-1, where it was first found', async () => {
    const paths = await pathsFetched('levels-1', ['--priority-levels', '1']);
    expect(paths).toEqual(['/', ...DEPTH_1, '/rare-1.html', '/popular.html', ...RARE.slice(1)]);
  });

  it('depth-first with levels still fetches every page once', async () => {
    const paths = await pathsFetched('dfs', ['--traversal', 'dfs']);
    expect(paths.slice().sort()).toEqual(['/', ...DEPTH_1, ...RARE, '/popular.html'].sort());
    expect(new Set(paths).size).toBe(paths.length);
  });
});

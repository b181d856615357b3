import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/order/tree.test (cross.test: below):
 *
 *   /          → a/, b/, c.html
 *   /a/        → 1.html, 2.html
 *   /a/1.html  → 1/deep.html
 *   /a/1/deep.html → ../../ (the root, already seen)
 *   /a/2.html  → / (already seen)
 *   /b/        → 1.html, ../a/2.html (already seen)
 *   /b/1.html, /c.html: leaves
 */
const BFS = ['/', '/a/', '/b/', '/c.html', '/a/1.html', '/a/2.html', '/b/1.html', '/a/1/deep.html'];
const DFS = ['/', '/a/', '/a/1.html', '/a/1/deep.html', '/a/2.html', '/b/', '/b/1.html', '/c.html'];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('order');
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

async function crawlIn(order: string, host = 'tree.test') {
  const repo = join(tmp.dir, `${host}-${order}`);
  const run = await web.crawl(['--seed', web.url(host), '--traversal', order, '--threads', '1', '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
  expect(run.code, run.stderr).toBe(0);
  const records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
  return { ...run, indexed: records.map((r) => new URL(r.url).pathname) };
}

describe.concurrent('traversal order with one thread and no delays', () => {
  it('bfs fetches breadth-first, the links of each page in document order, after robots.txt', async () => {
    const run = await crawlIn('bfs');
    expect(run.requests.map((r) => r.path)).toEqual(['/robots.txt', ...BFS]);
    expect(run.indexed).toEqual(BFS);
  });

  it('dfs fetches in depth-first preorder, the links of each page in document order, after robots.txt', async () => {
    const run = await crawlIn('dfs');
    expect(run.requests.map((r) => r.path)).toEqual(['/robots.txt', ...DFS]);
    expect(run.indexed).toEqual(DFS);
  });

  // cross.test: / → a.html, b.html, c.html; a.html → c.html. Depth-first, c.html is reached from
  // a.html before the seed's next link, so the preorder is /, a, c, b. (A stack that holds each URL
  // once, from where it was first discovered, gives /, a, b, c: not a depth-first order.)
  it('dfs visits a page reached from an earlier sibling before the later siblings (true preorder)', async () => {
    const run = await crawlIn('dfs', 'cross.test');
    expect(run.pages).toEqual(['/', '/a.html', '/c.html', '/b.html'].map((p) => 'cross.test' + p));
  });
});

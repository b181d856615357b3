import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/order/tree.test:
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
beforeEach(() => {
  web.server.requests.length = 0;
});

let runs = 0;
async function crawlIn(order: string): Promise<{ requested: string[]; indexed: string[] }> {
  const repo = join(tmp.dir, `${order}-${++runs}`);
  const { code, stderr } = await web.crawl(['--seed', web.url('tree.test'), '--traversal', order, '--threads', '1', '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
  expect(code, stderr).toBe(0);
  const records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
  return { requested: web.pages(), indexed: records.map((r) => new URL(r.url).pathname) };
}

describe('traversal order with one thread and no delays', () => {
  it('fetches breadth-first, the links of each page in document order', async () => {
    const { requested, indexed } = await crawlIn('bfs');
    expect(requested).toEqual(BFS.map((p) => 'tree.test' + p));
    expect(indexed).toEqual(BFS);
  });

  it('fetches in depth-first preorder, the links of each page in document order', async () => {
    const { requested, indexed } = await crawlIn('dfs');
    expect(requested).toEqual(DFS.map((p) => 'tree.test' + p));
    expect(indexed).toEqual(DFS);
  });

  it('asks for robots.txt once, before the first page of the host', async () => {
    await crawlIn('bfs');
    const paths = web.server.requests.map((r) => r.path);
    expect(paths[0]).toBe('/robots.txt');
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1);
  });
});

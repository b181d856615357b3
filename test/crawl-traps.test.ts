import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureHooks } from '../src/demo/fixture-server.js';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/** fixtures/e2e/order/tree.test in breadth-first order. */
const BFS = ['/', '/a/', '/b/', '/c.html', '/a/1.html', '/a/2.html', '/b/1.html', '/a/1/deep.html'];

/** A spider trap on loop.test: `/`, `/loop/`, `/loop/loop/`, ... each link `loop/` (relative). */
const loopTrap: FixtureHooks = {
  handle: (_req, res, at) => {
    if (at.host !== 'loop.test') return false;
    if (!/^(\/loop)*\/$/.test(at.path)) {
      res.writeHead(404).end();
      return true;
    }
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!DOCTYPE html><title>${at.path}</title><a href="loop/">deeper</a>`);
    return true;
  },
};

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('order', { hooks: loopTrap, extraHosts: ['loop.test'] });
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

async function crawl(name: string, seed: string, flags: string[]) {
  const repo = join(tmp.dir, name);
  const run = await web.crawl(['--seed', seed, '--repository', repo, '--log-level', '0', '--threads', '1', ...flags], { cwd: tmp.dir });
  expect(run.code, run.stderr).toBe(0);
  const records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
  return { ...run, paths: run.pages.map((p) => p.slice(p.indexOf('/'))), records };
}

describe.concurrent('spider-trap defences', () => {
  it('max-pages-per-host takes that many documents from a host', async () => {
    const run = await crawl('per-host', web.url('tree.test'), ['--max-pages-per-host', '3']);
    expect(run.paths).toEqual(BFS.slice(0, 3));
  });

  it('max-links-per-page takes only the first links of each page, and lists only those', async () => {
    const run = await crawl('links', web.url('tree.test'), ['--max-links-per-page', '1']);
    expect(run.paths).toEqual(['/', '/a/', '/a/1.html', '/a/1/deep.html']);
    expect(run.records.find((r) => new URL(r.url).pathname === '/')?.links.map((l) => new URL(l.url).pathname)).toEqual(['/a/']);
  });

  it('max-url-length drops normalized URLs longer than that', async () => {
    const limit = web.url('tree.test', '/c.html').length;
    const run = await crawl('url-length', web.url('tree.test'), ['--max-url-length', String(limit)]);
    expect(run.paths).toEqual(BFS.filter((p) => web.url('tree.test', p).length <= limit));
    expect(run.paths).toEqual(['/', '/a/', '/b/', '/c.html']);
  });

  it('max-path-repetition drops URLs in which one segment occurs more often than that', async () => {
    const run = await crawl('repetition', web.url('loop.test'), ['--max-path-repetition', '2']);
    expect(run.paths).toEqual(['/', '/loop/', '/loop/loop/']);
  });
});

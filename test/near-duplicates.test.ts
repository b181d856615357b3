import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { parseJsonl } from './support/index-files.js';
import { writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOST = 'www.near.test';
const FIXTURES = join(import.meta.dirname, '../fixtures/near-duplicates');

/**
 * A site of pages made from fixtures/near-duplicates (their own links taken out): the same tutorial
 * page twice with a different date (the second with a link, without text, to a page nothing else
 * links to), an exact copy, a restyled page whose original is found later, and a different page.
 */
describe('near-duplicates in a crawl', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  const web = () => join(dir, 'web');

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    const page = async (name: string, fixture: string, extra = '') => {
      const html = (await readFile(join(FIXTURES, fixture), 'utf8')).replace(/\shref="[^"]*"/g, '');
      await writePage(web(), HOST, name, html.replace('</body>', `${extra}</body>`));
    };
    await writePage(web(), HOST, 'index.html', ['dated.html', 'redated.html', 'restyled.html', 'copy.html', 'other.html'].map((p) => `<a href="${p}">${p}</a>`).join('\n'));
    await page('dated.html', 'date-a.html');
    await page('redated.html', 'date-b.html', '<a href="only-from-redated.html"></a>');
    await page('restyled.html', 'markup-b.html');
    await page('agg.html', 'tutorial-agg.html');
    await page('copy.html', 'date-a.html');
    await page('other.html', 'tutorial-views.html', '<a href="agg.html">the original</a>');
    await writePage(web(), HOST, 'only-from-redated.html', '<title>Only from the redated page</title>');
    server = await startFixtureServer({ root: web() });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  const crawl = async (name: string, flags: readonly string[] = []) => {
    const repo = join(dir, name);
    const run = await runCli(
      ['crawl', '--seed', `http://${HOST}:${server.port}/`, ...resolveFlags([HOST], server.port), '--repository', repo, '--threads', '1',
        '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0', '--index', '-', '--format', 'jsonl', ...flags],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    const records = parseJsonl(run.stdout);
    return new Map(records.map((r) => [new URL(String(r.url)).pathname, r]));
  };

  it('records nearDuplicateOf the earlier page, keeps exact copies as duplicateOf, and still follows links', async () => {
    const pages = await crawl('default');
    const url = (path: string) => `http://${HOST}:${server.port}${path}`;
    expect(pages.get('/redated.html')).toMatchObject({ nearDuplicateOf: url('/dated.html'), duplicateOf: null });
    expect(pages.get('/copy.html')).toMatchObject({ duplicateOf: url('/dated.html'), nearDuplicateOf: null });
    expect(pages.get('/dated.html')).toMatchObject({ nearDuplicateOf: null, duplicateOf: null });
    expect(pages.get('/other.html')).toMatchObject({ nearDuplicateOf: null });
    // restyled.html (fetched before agg.html) is the first of its pair: agg.html is its near-duplicate.
    expect(pages.get('/agg.html')).toMatchObject({ nearDuplicateOf: url('/restyled.html') });
    expect(pages.get('/restyled.html')!.simhash).toBe(pages.get('/agg.html')!.simhash);
    for (const rec of pages.values()) expect(rec.simhash).toMatch(/^[0-9a-f]{16}$/);
    expect(pages.has('/only-from-redated.html')).toBe(true);
  });

  it('with skip-near-duplicates, a near-duplicate\'s links are not followed (it is still recorded)', async () => {
    const pages = await crawl('skip', ['--skip-near-duplicates', 'true']);
    expect(pages.get('/redated.html')!.nearDuplicateOf).not.toBeNull();
    expect(pages.has('/only-from-redated.html')).toBe(false);
    expect(pages.has('/other.html')).toBe(true);
  });
});

/**
 * A crawl stopped by SIGINT between the two dated pages, then resumed: the resumed run knows the
 * first page's SimHash from the journal, so the second is still its near-duplicate.
 */
describe('near-duplicates across a resume', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  let stopAtRedated: (() => void) | undefined;

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    const web = join(dir, 'web');
    const page = async (name: string, fixture: string) =>
      writePage(web, HOST, name, (await readFile(join(FIXTURES, fixture), 'utf8')).replace(/\shref="[^"]*"/g, ''));
    await writePage(web, HOST, 'index.html', '<a href="dated.html">dated</a> <a href="redated.html">redated</a>');
    await page('dated.html', 'date-a.html');
    await page('redated.html', 'date-b.html');
    server = await startFixtureServer({
      root: web,
      hooks: {
        // While a test waits to stop the crawl there, /redated.html is never answered: the crawl is stopped with it in flight.
        handle: (_req, _res, at) => {
          if (at.path !== '/redated.html' || stopAtRedated === undefined) return false;
          stopAtRedated();
          return true;
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  it('finds the near-duplicate of a page the interrupted run fetched', async () => {
    const repo = join(dir, 'repo');
    const args = ['crawl', '--seed', `http://${HOST}:${server.port}/`, ...resolveFlags([HOST], server.port), '--repository', repo, '--threads', '1', '--priority-levels', '1',
      '--sitemaps', 'false', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0', '--index', '-', '--format', 'jsonl'];
    const first = await runCli(args, { cwd: dir, onSpawn: (child) => (stopAtRedated = () => child.kill('SIGINT')) });
    stopAtRedated = undefined;
    expect(first.code, first.stderr).toBe(130);
    expect(parseJsonl(first.stdout).map((r) => new URL(String(r.url)).pathname)).toEqual(['/', '/dated.html']);
    const second = await runCli(args, { cwd: dir });
    expect(second.code, second.stderr).toBe(0);
    const records = parseJsonl(second.stdout);
    expect(records.map((r) => new URL(String(r.url)).pathname)).toEqual(['/redated.html']);
    expect(records[0]).toMatchObject({ nearDuplicateOf: `http://${HOST}:${server.port}/dated.html` });
  });
});

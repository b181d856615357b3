import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb } from './support/e2e-web.js';
import { runCli, type CliResult } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

/** Where the test keeps the screenshot of the report it rendered (git-ignored). */
const ARTIFACTS = new URL('../test-artifacts/', import.meta.url);

/** Debian's chromium, headless, with nothing that reaches out on its own. */
const CHROMIUM = '/usr/bin/chromium';
const QUIET = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let tmp: Awaited<ReturnType<typeof tempDir>>;
let crawl: CliResult;
let repo: string;
let stats: { byStatus: Record<string, number>; byType: Record<string, number>; topHosts: Record<string, number>; droppedByReason: Record<string, number>; failuresByCode: Record<string, number>; documents: number };
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];
const requests: string[] = [];

beforeAll(async () => {
  tmp = await tempDir();
  repo = join(tmp.dir, 'demo');
  crawl = await runCli(['demo', '--repository', repo, '--report'], { cwd: tmp.dir });
  stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8'));
  context = await chromium.launchPersistentContext(join(tmp.dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: QUIET, viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(join(repo, 'report.html')).href, { waitUntil: 'load' });
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: new URL('report.png', ARTIFACTS).pathname, fullPage: true });
}, 120_000);
afterAll(async () => {
  await context?.close();
  await tmp.remove();
});

/** The figures a chart's bars carry, by label (the tooltip's `label: value`). */
const bars = (chart: string) =>
  page.$$eval(`svg[data-chart="${chart}"] rect.bar`, (rects) =>
    Object.fromEntries(rects.map((r) => [r.querySelector('title')!.textContent!.replace(/: [\d,.]+$/, ''), Number(r.getAttribute('data-value'))])),
  );

describe('tarantula demo --report, in a headless chromium', () => {
  it('writes REPOSITORY/report.html at the end of the crawl and says so', async () => {
    expect(crawl.code, crawl.stderr).toBe(0);
    expect((await stat(join(repo, 'report.html'))).size).toBeGreaterThan(0);
    expect(crawl.stderr).toContain(`  report:  ${join(repo, 'report.html')}`);
  });

  it('renders with no console error and no request but the file itself', () => {
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(join(repo, 'report.html')).href]);
  });

  it('draws statuses, types, hosts, drop reasons and failures from stats.json, one bar each', async () => {
    expect(await bars('status')).toEqual(stats.byStatus);
    expect(await bars('types')).toEqual(stats.byType);
    expect(await bars('hosts')).toEqual(stats.topHosts);
    expect(await bars('dropped')).toEqual(stats.droppedByReason);
    expect(await bars('failures')).toEqual(stats.failuresByCode);
  });

  it('draws depth and fetch durations from the journal: every document once in each', async () => {
    const journal = (await readFile(join(repo, '.tarantula', 'journal.jsonl'), 'utf8')).split('\n').filter((l) => l.startsWith('["d"'));
    const depths: Record<string, number> = {};
    for (const line of journal) {
      const depth = String((JSON.parse(line) as [string, string, { depth: number }])[2].depth);
      depths[depth] = (depths[depth] ?? 0) + 1;
    }
    expect(await bars('depth')).toEqual(depths);
    const durations: number[] = Object.values(await bars('durations'));
    expect(durations.reduce((a, b) => a + b, 0)).toBe(journal.length);
  });

  it('draws pages over time as steps, one level line per interval', async () => {
    const points = await page.$eval('svg[data-chart="rate"] path.series', (p) => ({ n: Number(p.getAttribute('data-points')), d: p.getAttribute('d')! }));
    expect(points.n).toBeGreaterThan(1);
    expect(points.d.match(/[ML]/g)).toHaveLength(2 * points.n);
  });

  it('lists the PageRank top 20 of the index, best first', async () => {
    const rows = await page.$$eval('table[data-chart="pagerank"] tr.ranked', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    expect(rows).toHaveLength(20);
    expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const scores = rows.map((r) => Number.parseFloat(r[4]!));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const ranked = await runCli(['pagerank', join(repo, 'index.txt'), '--top', '1', '--format', 'tsv']);
    expect(ranked.stdout.split('\t')).toContain(rows[0]![1]);
  });

  it('shows every chart at a visible size', async () => {
    for (const chart of ['rate', 'status', 'types', 'hosts', 'depth', 'durations', 'dropped', 'failures', 'pagerank']) {
      const box = await page.locator(`[data-chart="${chart}"]`).boundingBox();
      expect(box?.width, chart).toBeGreaterThan(200);
      expect(box?.height, chart).toBeGreaterThan(15);
    }
  });
});

describe('tarantula crawl --report, piped', () => {
  it('writes the report and logs where as one more JSON line, with no closing block', async () => {
    const web = await startWeb('lists');
    try {
      const out = join(tmp.dir, 'lists');
      const run = await web.crawl(['--seed', web.url('lists.test', '/start.php'), '--repository', out, '--report'], { cwd: tmp.dir });
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stderr.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { msg: string; report?: string });
      expect(lines.filter((l) => l.msg === 'report written')).toEqual([expect.objectContaining({ report: join(out, 'report.html') })]);
      expect((await readFile(join(out, 'report.html'), 'utf8')).startsWith('<!doctype html>')).toBe(true);
    } finally {
      await web.close();
    }
  });
});

describe('tarantula report', () => {
  it('rewrites the report of a crawled folder and says where it is', async () => {
    const run = await runCli(['report', repo]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(`tarantula: report written to ${join(repo, 'report.html')}\n`);
  });

  it('says plainly that a folder holds no crawl, and exits 1', async () => {
    const run = await runCli(['report', tmp.dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`tarantula: ${tmp.dir} holds no crawl (no stats.json, no .tarantula/journal.jsonl); crawl into it first: tarantula crawl --repository ${tmp.dir}\n`);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endlessPages } from './support/endless-web.js';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { CLI } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

/** Debian's chromium, headless, with nothing that reaches out on its own. */
const CHROMIUM = '/usr/bin/chromium';
const QUIET = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let crawl: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];
const requests: string[] = [];

beforeAll(async () => {
  tmp = await tempDir();
  web = await startWeb('dashboard', { root: tmp.dir, hooks: endlessPages('live.test', 60), extraHosts: ['live.test'] });
  const args = ['crawl', '--seed', web.url('live.test'), '--threads', '2', '--max-per-host', '2', '--repository', join(tmp.dir, 'repo'), '--log-level', '0', '--serve', '0', ...NO_DELAYS, ...NO_SITEMAPS, ...web.resolve()];
  crawl = spawn(CLI, args, { cwd: tmp.dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  crawl.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  exited = new Promise((resolve) => crawl.on('close', (code) => resolve(code)));
  await until(() => /"url":"(http:[^"]+)\/"/.test(stderr), 30_000);
  base = /"url":"(http:[^"]+)\/"/.exec(stderr)![1]!;
  context = await chromium.launchPersistentContext(join(tmp.dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: QUIET, viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
}, 120_000);
afterAll(async () => {
  await context?.close();
  crawl?.kill('SIGKILL');
  await web?.close();
  await tmp?.remove();
});

/** As much of the page's DOM as these checks read in the page (the tests are typed without the DOM library). */
interface PageGlobals {
  readonly document: { querySelector(selector: string): unknown; readonly documentElement: { readonly scrollWidth: number } };
  getComputedStyle(element: unknown): { readonly gridTemplateColumns: string };
}

/** The headline figure named `name` (pages, failures, …) as the page shows it now. */
const figure = (name: string) => page.$eval(`#panels dl.figures dt:text-is("${name}") + dd`, (dd) => Number(dd.textContent!.replace(/,/g, '')));

describe('the live dashboard of --serve, in a headless chromium', () => {
  it('updates while the crawl runs: the pages figure grows and the pages-over-time chart appears', async () => {
    const response = await page.goto(`${base}/`, { waitUntil: 'load' });
    expect(response!.headers()['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
    const first = await figure('pages');
    await page.waitForFunction(
      (n) => Number(((globalThis as unknown as PageGlobals).document.querySelector('#panels dl.figures dd') as { textContent: string }).textContent.replace(/,/g, '')) > n,
      first,
      { timeout: 30_000 },
    );
    await page.waitForSelector('#panels svg[data-chart="rate"] path.series', { timeout: 30_000 });
    expect(await page.textContent('#state')).toMatch(/^running: [\d,]+ pages, [\d,]+ pending, \d+ in flight, [\d.]+ pages\/s$/);
    expect(await figure('pages')).toBeGreaterThan(first);
  });

  it('has no console error, and asks nothing of any other origin; no inline script or event handler', async () => {
    expect(consoleErrors).toEqual([]);
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([]);
    const html = await (await fetch(`${base}/`)).text();
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('fits a phone: one column, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const columns = await page.evaluate(() => {
      const window = globalThis as unknown as PageGlobals;
      return window.getComputedStyle(window.document.querySelector('#panels main')).gridTemplateColumns.split(' ').length;
    });
    expect(columns).toBe(1);
    crawl.kill('SIGTERM');
    expect(await exited).toBe(143);
  });
});

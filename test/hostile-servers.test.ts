import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import {
  GOOD_PAGES,
  HOSTILE_ROOT,
  hostHooks,
  html,
  linesAbout,
  logLines,
  noRobots,
  readHostileStats,
  readJsonl,
  resetConnection,
  sendHtml,
  wrongContentLength,
  type Handler,
  type HostileStats,
  type LogLine,
} from './support/hostile-web.js';
import { parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

const LONG_HREF = `/${'x'.repeat(10 * 1024)}`;
/** The odd hrefs of hrefs.test/, each with the reason it must be dropped (undefined: it is a fetchable URL). */
const HREFS: [string, string | undefined][] = [
  ['javascript:alert(document.cookie)', 'unsupported-scheme'],
  ['JavaScript:void(0)', 'unsupported-scheme'],
  ['mailto:webmaster@hrefs.test', 'unsupported-scheme'],
  ['data:text/html,<a href=/evil.html>x</a>', 'unsupported-scheme'],
  ['http://[::1', 'invalid-url'],
  ['http://exa mple.test/', 'invalid-url'],
  [LONG_HREF, 'too-long'],
  ['/bad%zz%percent.html', undefined],
  ['/cut%E2%82.html', undefined],
  ['/ok.html', undefined],
];

/** Writes headers and part of a body, then resets the connection. */
const resetMidBody: Handler = (req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': 10_000 });
  res.write('<!DOCTYPE html><title>half</title>', () => setTimeout(() => req.socket.resetAndDestroy(), 20));
};

/** `/a/` and `/b/` send the same bytes, whose relative link resolves to a different child in each. */
const sameBody = html('the same page everywhere', ['child.html']);

const HOSTS: Record<string, Handler> = {
  'reset.test': noRobots(resetConnection),
  'halfreset.test': noRobots(resetMidBody),
  'short.test': noRobots(wrongContentLength(5_000, '<!DOCTYPE html><title>short</title><a href="/more.html">more</a>')),
  'overlong.test': noRobots(wrongContentLength(40, '<!DOCTYPE html><title>overlong</title><a href="/hidden.html">hidden</a>' + ' garbage'.repeat(100))),
  'hrefs.test': noRobots((_req, res, path) => sendHtml(res, path === '/' ? html('odd hrefs', HREFS.map(([h]) => h)) : html(`hrefs.test ${path}`))),
  'same.test': noRobots((_req, res, path) => sendHtml(res, path === '/' ? html('same', ['/a/', '/b/']) : path.endsWith('/') ? sameBody : html(`same.test ${path}`))),
};

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun;
let log: LogLine[];
let stats: HostileStats;
let records: SeedRecord[];
let jsonl: Record<string, unknown>[];
beforeAll(async () => {
  web = await startWeb('servers', { root: HOSTILE_ROOT, hooks: hostHooks(HOSTS), extraHosts: Object.keys(HOSTS) });
  tmp = await tempDir();
  const repo = join(tmp.dir, 'repo');
  const seeds = [...Object.keys(HOSTS), 'good.test'].map((h) => web.url(h));
  seeds.push(web.url('markup.test', '/malformed.html'));
  const flags = ['--threads', '4', '--max-retries', '1', '--header-timeout', '500', '--body-timeout', '500', '--index', join(tmp.dir, 'index.jsonl'), '--format', 'jsonl'];
  run = await web.crawl([...seeds.flatMap((s) => ['--seed', s]), '--repository', repo, '--log-level', '2', ...flags], { cwd: tmp.dir });
  log = logLines(run.stderr);
  stats = await readHostileStats(repo);
  records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
  jsonl = await readJsonl(join(tmp.dir, 'index.jsonl'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const requested = (host: string): string[] => run.requests.filter((r) => r.host === host && r.path !== '/robots.txt').map((r) => r.path);
const indexed = (): string[] => records.map((r) => r.url);

describe('hostile servers', () => {
  it('terminate the crawl, which goes on: every page of good.test is recorded', () => {
    expect(run.code, run.stderr).toBe(0);
    for (const path of GOOD_PAGES) expect(indexed()).toContain(web.url('good.test', path));
  });

  it('a connection reset before the answer, or in the middle of the body: retried, then given up as reset', () => {
    for (const host of ['reset.test', 'halfreset.test']) {
      expect(requested(host)).toEqual(['/', '/']);
      expect(linesAbout(log, web.url(host))).toContainEqual(expect.objectContaining({ level: 40, code: 'reset' }));
      expect(indexed()).not.toContain(web.url(host));
    }
    expect(stats.failuresByCode.reset).toBe(2);
  });

  it('a Content-Length longer than the body: the response is refused as bad, not recorded half', () => {
    expect(requested('short.test')[0]).toBe('/');
    expect(linesAbout(log, web.url('short.test'))).toContainEqual(expect.objectContaining({ level: 40, code: 'bad-response' }));
    expect(indexed()).not.toContain(web.url('short.test'));
    expect(stats.failuresByCode['bad-response']).toBe(1);
  });

  it('a body longer than its Content-Length: only the declared bytes are taken', () => {
    const record = jsonl.find((r) => r.url === web.url('overlong.test'));
    expect(record).toMatchObject({ contentLength: 40, title: 'overlong', links: [] });
    expect(requested('overlong.test')).toEqual(['/']); // the link after the 40th byte is not seen
  });

  it('malformed HTML: the page is recorded and every link a browser would see is found (none inside a script)', () => {
    const page = records.find((r) => r.url === web.url('markup.test', '/malformed.html'));
    expect(page?.title).toBe('Malformed <b>markup');
    const links = page?.links.map((l) => new URL(l.url).pathname);
    expect(links).toEqual(['/after-table.html', '/single-quoted.html', '/unquoted.html', '/after-comment.html', '/nested.html', '/after-script.html', '/end.html']);
    expect(requested('markup.test').sort()).toEqual(['/malformed.html', ...links!].sort());
  });

  it('javascript:, mailto:, data:, broken and 10 KB hrefs are dropped with their reason; the page and its good links are kept', () => {
    expect(indexed()).toContain(web.url('hrefs.test'));
    for (const [href, reason] of HREFS) {
      if (reason === undefined) continue;
      expect(log).toContainEqual(expect.objectContaining({ msg: 'dropped', reason, url: expect.stringContaining(href.slice(0, 40)) }));
    }
    expect(requested('hrefs.test')).toContain('/ok.html');
    expect(requested('hrefs.test')).not.toContain(LONG_HREF);
    expect(requested('hrefs.test').filter((p) => p.startsWith('/bad') || p.startsWith('/cut'))).toHaveLength(2);
    expect(stats.droppedByReason).toMatchObject({ 'unsupported-scheme': 4, 'invalid-url': 2, 'too-long': 1 });
  });

  /**
   * /a/ and /b/ have the same body. The first whose parse comes back is the original: usually /a/,
   * fetched first, but the document workers may return /b/ first on a busy machine.
   */
  const sameOrder = (): [string, string] => {
    const a = jsonl.find((r) => r.url === web.url('same.test', '/a/'));
    return a?.duplicateOf === null ? ['/a/', '/b/'] : ['/b/', '/a/'];
  };

  it('content seen before under another URL: recorded with duplicateOf the first URL, and its links are not followed', () => {
    const [original, copy] = sameOrder();
    const [first, second] = [original, copy].map((p) => jsonl.find((r) => r.url === web.url('same.test', p)));
    expect(first).toMatchObject({ duplicateOf: null });
    expect(second).toMatchObject({ duplicateOf: web.url('same.test', original) });
    expect(requested('same.test')).toContain(`${original}child.html`);
    expect(requested('same.test')).not.toContain(`${copy}child.html`);
  });

  it('a duplicate is logged as such', () => {
    const [original, copy] = sameOrder();
    expect(linesAbout(log, web.url('same.test', copy))).toContainEqual(expect.objectContaining({ duplicateOf: web.url('same.test', original) }));
  });
});

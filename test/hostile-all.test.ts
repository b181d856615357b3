import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import {
  GOOD_PAGES,
  HOSTILE_ROOT,
  blackhole,
  bomb,
  counted,
  hostHooks,
  hugePage,
  html,
  linesAbout,
  logLines,
  noRobots,
  readHostileStats,
  readJsonl,
  resetConnection,
  sendHtml,
  silent,
  stallAfterHeaders,
  statusForever,
  wrongContentLength,
  type Handler,
  type HostileStats,
  type LogLine,
} from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

const MIB = 1024 * 1024;

/** Every misbehaving server of the hostile tests, each on its own host name. */
const HOSTS: Record<string, Handler> = {
  'silent.test': noRobots(silent),
  'stall.test': noRobots(stallAfterHeaders),
  'reset.test': noRobots(resetConnection),
  'short.test': noRobots(wrongContentLength(5_000, '<!DOCTYPE html><title>short</title>')),
  'overlong.test': noRobots(wrongContentLength(40, '<!DOCTYPE html><title>overlong</title>' + ' garbage'.repeat(100))),
  'huge.test': noRobots(hugePage(20 * MIB)),
  'gzip.test': noRobots(bomb('gzip', 1024 * MIB)),
  'deflate.test': noRobots(bomb('deflate', 1024 * MIB)),
  'br.test': noRobots(bomb('br', 1024 * MIB)),
  'down.test': noRobots(statusForever(500)),
  'later.test': noRobots(counted((n) => (n === 0 ? { status: 503, headers: { 'Retry-After': '1' }, body: html('later') } : { status: 200, body: html('later.test page') }))),
  'hops.test': noRobots((_req, res, path) => res.writeHead(302, { Location: `/r${path === '/' ? 1 : Number(path.slice(2)) + 1}` }).end()),
  'loop.test': noRobots((_req, res, path) => res.writeHead(301, { Location: path === '/' ? '/other' : '/' }).end()),
  'norobots.test': (_req, res) => res.writeHead(503).end(),
  'hrefs.test': noRobots((_req, res, path) =>
    sendHtml(res, html(`hrefs.test ${path}`, path === '/' ? ['javascript:void(0)', 'mailto:x@hrefs.test', 'data:,x', '/bad%zz', `/${'x'.repeat(10_240)}`, '/ok.html'] : [])),
  ),
};

/** The pages a crawl of all that must record. */
const GOOD = [
  ...GOOD_PAGES.flatMap((p) => [`good.test${p}`, `other.test${p}`]),
  'markup.test/malformed.html',
  'markup.test/after-table.html',
  'markup.test/end.html',
  'hrefs.test/',
  'hrefs.test/ok.html',
  'later.test/',
  'overlong.test/',
  'huge.test/',
  'gzip.test/',
  'deflate.test/',
  'br.test/',
];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let hole: Awaited<ReturnType<typeof blackhole>>;
let run: CrawlRun;
let ms: number;
let log: LogLine[];
let stats: HostileStats;
let indexed: string[];
let jsonl: Record<string, unknown>[];

beforeAll(async () => {
  web = await startWeb('all', { root: HOSTILE_ROOT, hooks: hostHooks(HOSTS), extraHosts: Object.keys(HOSTS) });
  tmp = await tempDir();
  hole = await blackhole();
  const repo = join(tmp.dir, 'repo');
  const seeds = [...Object.keys(HOSTS), 'good.test', 'other.test'].map((h) => web.url(h));
  seeds.push(web.url('markup.test', '/malformed.html'), `http://hole.test:${hole.port}/`);
  const flags = ['--max-retries', '1', '--connect-timeout', '500', '--header-timeout', '500', '--body-timeout', '500', '--resolve', `hole.test:${hole.port}:127.0.0.1`];
  const started = Date.now();
  run = await web.crawl([...seeds.flatMap((s) => ['--seed', s]), '--repository', repo, '--log-level', '2', '--index', join(tmp.dir, 'all.jsonl'), '--format', 'jsonl', ...flags], {
    cwd: tmp.dir,
    timeoutMs: 40_000,
  });
  ms = Date.now() - started;
  log = logLines(run.stderr);
  stats = await readHostileStats(repo);
  indexed = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => {
    const url = new URL(r.url);
    return url.hostname + url.pathname;
  });
  jsonl = await readJsonl(join(tmp.dir, 'all.jsonl'));
});
afterAll(async () => {
  hole?.close();
  await web.close();
  await tmp.remove();
});

describe('all the hostile servers in one crawl (default limits, short timeouts)', () => {
  it('terminates by itself, with exit status 0, in reasonable time', () => {
    expect(run.signal).toBeNull();
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(stats.completed).toBe(true);
    expect(ms).toBeLessThan(30_000);
  });

  it('records every good page', () => {
    for (const page of GOOD) expect(indexed).toContain(page);
  });

  // Three bombs of 1 GiB each and a 20 MiB page: undefended, gigabytes. Cut at 20 MiB decoded, up to four
  // such bodies are in the crawl at once (a body on the main thread, its text and the SimHash's copy of
  // it in the worker), on top of the crawler's 110 MB: measured 260–311 MB over twelve runs on 1 December,
  // in two modes by whether the bodies overlap, with and without the worker's young-generation cap.
  it('keeps its peak RSS under 360 MB', () => {
    expect(stats.peakRssMb).toBeGreaterThan(0);
    expect(stats.peakRssMb).toBeLessThan(360);
  });

  it('cuts the huge page at max-body-size and the bombs at max-decoded-size, and marks them truncated', () => {
    const size = (host: string) => jsonl.find((r) => r.url === web.url(host));
    expect(size('huge.test')).toMatchObject({ truncated: true, contentLength: 10 * MIB });
    for (const host of ['gzip.test', 'deflate.test', 'br.test']) expect(size(host)).toMatchObject({ truncated: true, contentLength: 20 * MIB });
  });

  it('gives up on each failing server with a warning naming its URL and why', () => {
    const warned = (url: string, what: Record<string, unknown>) => expect(linesAbout(log, url)).toContainEqual(expect.objectContaining({ level: 40, ...what }));
    warned(web.url('silent.test'), { code: 'header-timeout' });
    warned(web.url('stall.test'), { code: 'body-timeout' });
    warned(web.url('reset.test'), { code: 'reset' });
    warned(web.url('short.test'), { code: 'bad-response' });
    warned(web.url('down.test'), { code: 'http-500' });
    warned(web.url('hops.test', '/r5'), { code: 'too-many-redirects' });
    warned(web.url('norobots.test'), { reason: 'robots-unavailable' });
    warned(`http://hole.test:${hole.port}/`, { reason: 'robots-unavailable' });
  });

  it('counts every failure and drop in stats.json', () => {
    expect(stats.failuresByCode).toEqual({ 'header-timeout': 1, 'body-timeout': 1, reset: 1, 'bad-response': 1, 'http-500': 1, 'too-many-redirects': 1 });
    expect(stats.droppedByReason).toMatchObject({ 'robots-unavailable': 2, 'unsupported-scheme': 3, 'too-long': 1 });
    expect(stats.droppedByReason.duplicate).toBeGreaterThanOrEqual(1); // the redirect loop
    expect(stats.retries).toBeGreaterThanOrEqual(7);
  });
});

import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS } from './support/e2e-web.js';
import { startForwardProxy, type ForwardProxy } from './support/forward-proxy.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

/**
 * No URL maps onto a file the crawl writes itself, and no two URLs share one mirror file (SPEC §15),
 * through real crawls: host names pointed at the loopback server with --resolve, as a proxy would
 * let any name through.
 */

const tag = (url: string): string => '~' + createHash('md5').update(url).digest('hex').slice(0, 8);

/** Pairs of URLs whose mirror names are the same, each page's body naming its own request target. */
const PAIRS = [['/', '/index.html'], ['/d/', '/d/index.html'], ['/news', '/news.html'], ['/q?x=1', '/q%3Fx=1'], ['/a:b', '/a%3Ab']];
const PATHS = PAIRS.flat();
/** Bumped by a test to change every page (a recrawl then stores each again). */
let version = 1;
/** While set, this path is held unanswered (a crawl to kill mid-way). */
let holdPath: string | undefined;

let tmp: Awaited<ReturnType<typeof tempDir>>;
let server: FixtureServer;
/** A forward proxy sending every host name to the server: URLs without a port, names no DNS would answer. */
let proxy: ForwardProxy;
/** No proxy variable of the test machine leaks into a run. */
const NO_PROXY_ENV = Object.fromEntries(['http_proxy', 'https_proxy', 'all_proxy', 'no_proxy'].flatMap((n) => [[n, ''], [n.toUpperCase(), '']]));

beforeAll(async () => {
  tmp = await tempDir();
  server = await startFixtureServer({
    root: tmp.dir,
    hooks: {
      handle: (_req, res, at) => {
        if (at.path === '/robots.txt') return res.writeHead(404).end(), true;
        if (at.path === holdPath) return true;
        const home = at.path === '/' && /^(pair|resume)\.test/.test(at.host) ? PATHS.map((p) => `<a href="${p}">${p}</a>`).join('\n') : '';
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${at.host}${at.path} v${version}</title>${home}`);
        return true;
      },
    },
  });
  proxy = await startForwardProxy(() => server.port);
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await tmp.remove();
});

interface Record {
  readonly url: string;
  readonly localPath: string;
}

let runs = 0;
/** Crawls `seeds` into `repo` with a jsonl index; resolves to the records and the run. */
async function crawl(repo: string, seeds: readonly string[], hosts: readonly string[] | 'proxy', extra: readonly string[] = [], onSpawn?: (c: ChildProcess) => void) {
  const agent = `tarantula/collide-${++runs}`;
  const index = join(tmp.dir, `index-${runs}.jsonl`);
  const run = await runCli(
    ['crawl', ...seeds.flatMap((s) => ['--seed', s]), ...(hosts === 'proxy' ? ['--proxy', proxy.url] : resolveFlags(hosts, server.port)), '--repository', repo, '--index', index, '--format', 'jsonl',
      '--log-level', '0', '--threads', '1', '--scope', 'free-spanning', ...NO_DELAYS, ...NO_SITEMAPS, '--user-agent', agent, ...extra],
    { cwd: tmp.dir, env: NO_PROXY_ENV, timeoutMs: 120_000, ...(onSpawn ? { onSpawn } : {}) },
  );
  const text = await readFile(index, 'utf8').catch(() => '');
  const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record);
  return { run, records, agent };
}

/** Every record's file holds that URL's page, and no two records share a file. */
async function expectOwnCopies(repo: string, records: readonly Record[], v: number): Promise<void> {
  expect(new Set(records.map((r) => r.localPath)).size).toBe(records.length);
  for (const r of records) {
    const url = new URL(r.url);
    expect(await readFile(join(repo, r.localPath), 'utf8'), r.url).toContain(`<title>${url.hostname}${url.pathname}${url.search} v${v}</title>`);
  }
}

describe('two URLs of one mirror name', () => {
  it('each keep a copy of their own, the later one tagged, and keep their paths through a recrawl', async () => {
    version = 1;
    const repo = join(tmp.dir, 'pairs');
    const home = `http://pair.test:${server.port}/`;
    const first = await crawl(repo, [home], ['pair.test']);
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(first.records.map((r) => new URL(r.url).pathname + new URL(r.url).search).sort()).toEqual([...PATHS].sort());
    await expectOwnCopies(repo, first.records, 1);
    const byUrl = new Map(first.records.map((r) => [r.url, r.localPath]));
    // Fetched in link order with one thread: the first of each pair takes the name, the second gets its tag.
    expect(byUrl.get(home)).toBe(`pair.test+${server.port}/index.html`);
    expect(byUrl.get(`${home}index.html`)).toBe(`pair.test+${server.port}/index${tag(`${home}index.html`)}.html`);
    expect(byUrl.get(`${home}a%3Ab`)).toBe(`pair.test+${server.port}/a%3Ab${tag(`${home}a%3Ab`)}.html`);

    version = 2;
    const again = await crawl(repo, [home], ['pair.test']);
    expect(again.run.code, again.run.stderr).toBe(0);
    await expectOwnCopies(repo, again.records, 2);
    expect(new Map(again.records.map((r) => [r.url, r.localPath]))).toEqual(byUrl);
  });

  it('each keep a copy of their own when the crawl was killed and resumed', async () => {
    version = 3;
    const repo = join(tmp.dir, 'resumed');
    const home = `http://resume.test:${server.port}/`;
    holdPath = '/news.html';
    let child: ChildProcess | undefined;
    const killed = crawl(repo, [home], ['resume.test'], [], (c) => (child = c));
    await until(() => server.requests.some((r) => r.host === 'resume.test' && r.path === '/news.html'), 60_000);
    child!.kill('SIGKILL');
    await killed;
    holdPath = undefined;
    const resumed = await crawl(repo, [home], ['resume.test']);
    expect(resumed.run.code, resumed.run.stderr).toBe(0);
    expect(resumed.records).toHaveLength(PATHS.length);
    await expectOwnCopies(repo, resumed.records, 3);
  });
});

describe("the crawl's own files", () => {
  it('are never written by a URL, whatever its host is named; the next run still knows every page', async () => {
    version = 4;
    const repo = join(tmp.dir, 'own');
    // A log file inside the repository is one of the crawl's own files too.
    const seeds = ['http://.tarantula/journal.jsonl', 'http://stats.json/', 'http://index.txt/', 'http://report.html/x', 'http://crawl.log/', 'http://files.test/'];
    const first = await crawl(repo, seeds, 'proxy', ['--log-file', join(repo, 'crawl.log'), '--log-level', '1']);
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(first.records).toHaveLength(seeds.length);
    await expectOwnCopies(repo, first.records, 4);
    expect(first.records.map((r) => r.localPath.split('/')[0]).sort()).toEqual(['%2Etarantula', '%63rawl.log', '%69ndex.txt', '%72eport.html', '%73tats.json', 'files.test']);
    // Still the crawl's: the journal, stats.json, index.txt and the log.
    expect(JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8'))).toMatchObject({ documents: seeds.length, completed: true });
    expect((await readFile(join(repo, 'index.txt'), 'utf8')).split('\n').filter((l) => /^[0-9a-f]{32}\t/.test(l))).toHaveLength(seeds.length);
    expect((await readFile(join(repo, '.tarantula/journal.jsonl'), 'utf8')).split('\n')[0]).toMatch(/^\["start",/);
    expect((await stat(join(repo, 'crawl.log'))).isFile()).toBe(true);

    const again = await crawl(repo, seeds, 'proxy');
    expect(again.run.code, again.run.stderr).toBe(0);
    // A recrawl: every page requested conditionally, none forgotten.
    const conditional = server.requests.filter((r) => r.headers['user-agent'] === again.agent && r.path !== '/robots.txt');
    expect(conditional).toHaveLength(seeds.length);
    for (const r of conditional) expect(r.headers['if-modified-since'] ?? r.headers['if-none-match'], r.host + r.path).toBeDefined();
  });
});

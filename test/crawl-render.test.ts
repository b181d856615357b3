import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonl } from './support/index-files.js';
import { resolveFlags, runCli, type CliResult } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';
import { cdxjOf, checkWarc, type ParsedRecord } from './support/warc-files.js';
import { readStats } from './support/e2e-web.js';
import { findChromium } from '../src/render/find-chromium.js';
import { PAGES_PER_CONTEXT, PageRenderer } from '../src/render/page-renderer.js';
import type { FetchResponse } from '../src/model/fetch-response.js';

/**
 * app.test: an app shell whose /app.js inserts one link and fetches two more from /api/links.json
 * (and tries /private/secret.json, which robots.txt disallows); the pages it links to are static,
 * with a stylesheet and no script (a browser would ask for /static.css); /forever.html never stops
 * fetching and waits on /api/slow (answered after 17 s) from the start, so it never settles, however
 * long a loaded machine leaves its ticks apart. /g/N.html and /s/N.html are pages of text and links with a script:
 * /adds.js links them to /added.html, /noop.js does nothing. /tp.html is a shell whose scripts come
 * from other hosts: cdn.test's /lib.js links it to /from-cdn.html, ads.test (rejected), a path
 * robots.txt disallows, and a literal loopback address (refused by the address guard).
 */
const SHELL = '<!doctype html><html><head><title>Shell</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>';
const APP_JS = `
const app = document.getElementById('app');
const add = (href) => { const a = document.createElement('a'); a.href = href; a.textContent = href; app.appendChild(a); };
add('/from-script.html');
fetch('/api/links.json').then((r) => r.json()).then((links) => links.forEach(add));
fetch('/private/secret.json').then((r) => r.json()).then((links) => links.forEach(add), () => undefined);
`;
const TEXT = `<p>${'A page whose text and links are all in its HTML. '.repeat(8)}</p>`;
const STATIC = (title: string): string =>
  `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="/static.css"></head><body>${TEXT}<a href="/">home</a></body></html>`;
/** A page of text that links nowhere and loads nothing. */
const LEAF = (title: string): string => `<!doctype html><html><head><title>${title}</title></head><body>${TEXT}</body></html>`;
const FOREVER = '<!doctype html><html><head><title>Forever</title></head><body><script>fetch("/api/slow"); setInterval(() => fetch("/api/tick"), 20);</script></body></html>';
/** How long /api/slow keeps its request waiting: past the test's render-timeout, within the fetch's header-timeout. */
const SLOW_MS = 17_000;
/** Page `n` of a chain of `last + 1` pages of text at `/DIR/N.html`, each with `script`. */
const CHAINED = (dir: string, n: number, last: number, script: string): string =>
  `<!doctype html><html><head><title>${dir}${n}</title></head><body>${TEXT}${n < last ? `<a href="/${dir}/${n + 1}.html">next</a>` : ''}<script src="${script}"></script></body></html>`;
const ADDS_JS = `const a = document.createElement('a'); a.href = '/added.html'; a.textContent = 'added'; document.body.appendChild(a);`;
const THIRD_PARTY_SHELL = `<!doctype html><html><head><title>Third party</title></head><body><div id="app"></div>${[
  'http://cdn.test:{PORT}/lib.js', 'http://ads.test:{PORT}/ads.js', 'http://cdn.test:{PORT}/private/p.js', 'http://127.0.0.1:{PORT}/guarded.js',
].map((src) => `<script src="${src}"></script>`).join('')}</body></html>`;
const LINK_JS = (href: string): string => `const a = document.createElement('a'); a.href = '${href}'; a.textContent = 'x'; document.getElementById('app').appendChild(a);`;

const ROUTES: Record<string, [string, string]> = {
  '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /private/\n'],
  '/': ['text/html', SHELL],
  '/app.js': ['text/javascript', APP_JS],
  '/api/links.json': ['application/json', JSON.stringify(['/from-api-1.html', '/from-api-2.html'])],
  '/private/secret.json': ['application/json', JSON.stringify(['/secret.html'])],
  '/from-script.html': ['text/html', STATIC('From script')],
  '/from-api-1.html': ['text/html', STATIC('From API 1')],
  '/from-api-2.html': ['text/html', STATIC('From API 2')],
  '/static.css': ['text/css', 'p { color: black; }'],
  '/forever.html': ['text/html', FOREVER],
  '/api/tick': ['application/json', '1'],
  '/api/slow': ['application/json', '1'],
  ...Object.fromEntries([0, 1, 2, 3, 4].map((n) => [`/g/${n}.html`, ['text/html', CHAINED('g', n, 4, '/adds.js')]])),
  ...Object.fromEntries([0, 1, 2, 3, 4, 5].map((n) => [`/s/${n}.html`, ['text/html', CHAINED('s', n, 5, '/noop.js')]])),
  '/adds.js': ['text/javascript', ADDS_JS],
  '/noop.js': ['text/javascript', 'void 0;'],
  '/added.html': ['text/html', LEAF('Added')],
  '/tp.html': ['text/html', THIRD_PARTY_SHELL],
  '/lib.js': ['text/javascript', LINK_JS('/from-cdn.html')],
  '/ads.js': ['text/javascript', LINK_JS('/from-ads.html')],
  '/private/p.js': ['text/javascript', LINK_JS('/from-private.html')],
  '/guarded.js': ['text/javascript', LINK_JS('/from-guarded.html')],
  '/from-cdn.html': ['text/html', LEAF('From CDN')],
};

interface Logged {
  /** The Host header's name, without its port. */
  readonly host: string;
  readonly path: string;
  readonly start: number;
  end: number;
}

/** A loopback server of ROUTES, each answer 40 ms late (so overlapping requests would show; /api/slow 17 s), logging every request. */
class AppSite {
  readonly log: Logged[] = [];
  /** Answers to /api/links.json wait while this is set (the SIGINT test stops the crawl then). */
  hold = false;
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const entry: Logged = { host: (req.headers.host ?? '').replace(/:\d+$/, ''), path, start: Date.now(), end: 0 };
      this.log.push(entry);
      const answer = (): void => {
        const route = ROUTES[path];
        entry.end = Date.now();
        if (route === undefined) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': route[0] }).end(route[1].replaceAll('{PORT}', String(this.port)));
      };
      const wait = (): void => void setTimeout(() => (this.hold && path === '/api/links.json' ? wait() : answer()), path === '/api/slow' ? SLOW_MS : 40);
      wait();
    });
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  paths(): string[] {
    return this.log.map((l) => l.path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }
}

/** Makes any import of playwright-core in the CLI's process fail. */
const FORBID_PLAYWRIGHT = { NODE_OPTIONS: `--import ${pathToFileURL(join(import.meta.dirname, 'support', 'forbid-playwright.mjs')).href}` };

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.remove();
});

async function withSite<T>(body: (site: AppSite) => Promise<T>): Promise<T> {
  const site = new AppSite();
  await site.start();
  try {
    return await body(site);
  } finally {
    await site.close();
  }
}

/** The command line of a crawl of `seeds` (paths on app.test, or whole URLs with {PORT}). */
function crawlArgs(site: AppSite, repo: string, extra: readonly string[], seeds = ['/']): string[] {
  const url = (seed: string): string => (seed.startsWith('/') ? `http://app.test:${site.port}${seed}` : seed.replaceAll('{PORT}', String(site.port)));
  return [
    'crawl', ...seeds.flatMap((s) => ['--seed', url(s)]), ...resolveFlags(['app.test', 'cdn.test', 'ads.test', 'gain.test', 'plain.test'], site.port),
    '--repository', repo, '--index-file', join(repo, 'index.jsonl'), '--index-format', 'jsonl', '--log-level', '0',
    '--min-delay', '0', '--max-delay', '0', '--delay-factor', '0', ...extra,
  ];
}

async function crawled(repo: string): Promise<Record<string, unknown>[]> {
  return parseJsonl(await readFile(join(repo, 'index.jsonl'), 'utf8'));
}

/** The Chromium processes among the descendants of `pid` (the crawl's browser). */
function chromiumsUnder(pid: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm=']).toString().trim().split('\n').map((l) => l.trim().split(/\s+/));
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, pp] of rows) if (!tree.has(Number(p)) && tree.has(Number(pp))) (tree.add(Number(p)), (grew = true));
  }
  return rows.filter(([p, , comm]) => tree.has(Number(p)) && /chrom/i.test(comm ?? '')).map(([p]) => Number(p));
}

const titles = (records: Record<string, unknown>[]): string[] => records.map((r) => String(r['title'])).sort();
const ok = (run: CliResult): void => expect(run.code, run.stderr).toBe(0);

describe.concurrent('JavaScript pages (render)', { timeout: 85_000 }, () => {
  it('never (the default): fetches the shell only, and never imports playwright-core', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'never');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'never']), { env: FORBID_PLAYWRIGHT });
      ok(run);
      expect(titles(await crawled(repo))).toEqual(['Shell']);
      expect(site.paths().sort()).toEqual(['/', '/robots.txt']);
      // The same guard does catch a crawl that renders: its pages fail on the import.
      const rendering = join(tmp.dir, 'never-guard');
      const guarded = await runCli(crawlArgs(site, rendering, ['--render', 'always']), { env: FORBID_PLAYWRIGHT });
      expect(guarded.stderr).toContain('playwright-core was imported');
    });
  });

  it('always: reaches the links the script and its API call insert, one request at a time, never a disallowed one; the mirror keeps both copies', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'always');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'always', '--max-per-host', '1', '--threads', '4']), { timeoutMs: 80_000 });
      ok(run);
      expect(titles(await crawled(repo))).toEqual(['From API 1', 'From API 2', 'From script', 'Shell']);
      expect(site.paths()).toContain('/api/links.json');
      expect(site.paths()).not.toContain('/private/secret.json');
      expect(site.paths().filter((p) => p === '/').length).toBe(1); // served to the browser from the crawler's fetch
      // max-per-host 1: the browser's requests and the crawler's never overlap.
      const log = [...site.log].sort((a, b) => a.start - b.start);
      for (let i = 1; i < log.length; i++) expect(log[i]!.start, `${log[i]!.path} began before ${log[i - 1]!.path} ended`).toBeGreaterThanOrEqual(log[i - 1]!.end);
      const shell = (await crawled(repo)).find((r) => r['title'] === 'Shell')!;
      const stored = String(shell['localPath'] ?? shell['path']);
      expect(await readFile(join(repo, stored), 'utf8')).toBe(SHELL);
      expect(shell['renderedPath']).toBe(`${stored}.rendered.html`);
      expect(await readFile(join(repo, String(shell['renderedPath'])), 'utf8')).toContain('/from-api-2.html');
    });
  });

  it('auto: renders the shell, never loads a static page in the browser', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'auto');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'auto']), { timeoutMs: 80_000 });
      ok(run);
      expect(titles(await crawled(repo))).toEqual(['From API 1', 'From API 2', 'From script', 'Shell']);
      expect(site.paths()).toContain('/app.js');
      expect(site.paths()).not.toContain('/static.css');
      const records = await crawled(repo);
      expect(records.filter((r) => 'renderedPath' in r).map((r) => r['title'])).toEqual(['Shell']);
    });
  });

  it('auto learns per host: renders a host whose sampled pages gained links in the browser, stops sampling one whose did not', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'auto-learned');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'auto', '--max-per-host', '1'], ['http://gain.test:{PORT}/g/0.html', 'http://plain.test:{PORT}/s/0.html']), { timeoutMs: 80_000 });
      ok(run);
      const loads = (host: string, path: string): number => site.log.filter((l) => l.host === host && l.path === path).length;
      // gain.test: its first page's browser found /added.html, so all five were rendered.
      expect(loads('gain.test', '/adds.js')).toBe(5);
      expect(titles(await crawled(repo))).toContain('Added');
      // plain.test: three samples found nothing more, so its other three pages were only fetched.
      expect(loads('plain.test', '/noop.js')).toBe(3);
      const rendered = (await crawled(repo)).filter((r) => 'renderedPath' in r).map((r) => String(r['title'])).sort();
      expect(rendered).toEqual(['g0', 'g1', 'g2', 'g3', 'g4', 's0', 's1', 's2']);
    });
  });

  it('render-third-party: other hosts only when allowed, then through robots.txt, the reject list, the address guard and the host\'s own slot', async () => {
    await withSite(async (site) => {
      const blocked = join(tmp.dir, 'third-party-off');
      ok(await runCli(crawlArgs(site, blocked, ['--render', 'always'], ['/tp.html']), { timeoutMs: 80_000 }));
      expect(site.log.filter((l) => l.host !== 'app.test')).toEqual([]);
      expect(titles(await crawled(blocked))).toEqual(['Third party']);

      const repo = join(tmp.dir, 'third-party-on');
      // cdn.test is crawled too, so the browser's request to it competes with the crawler's for its one slot.
      const seeds = ['/tp.html', 'http://cdn.test:{PORT}/from-cdn.html', 'http://cdn.test:{PORT}/added.html'];
      const run = await runCli(crawlArgs(site, repo, ['--render', 'always', '--render-third-party', 'true', '--reject-list', 'ads\\.test', '--max-per-host', '1', '--threads', '4', '--render-threads', '2'], seeds), { timeoutMs: 80_000 });
      ok(run);
      // app.test's /from-cdn.html, linked by cdn.test's script: scope chooses pages, not what a page loads.
      expect(titles(await crawled(repo))).toEqual(['Added', 'From CDN', 'From CDN', 'Third party']);
      const cdn = site.log.filter((l) => l.host === 'cdn.test').sort((a, b) => a.start - b.start);
      expect(cdn.map((l) => l.path).sort()).toEqual(['/added.html', '/from-cdn.html', '/lib.js', '/robots.txt']);
      expect(site.log.filter((l) => l.host !== 'app.test' && l.host !== 'cdn.test')).toEqual([]);
      for (let i = 1; i < cdn.length; i++) expect(cdn[i]!.start, `${cdn[i]!.path} began before ${cdn[i - 1]!.path} ended`).toBeGreaterThanOrEqual(cdn[i - 1]!.end);
    });
  });

  it('--warc holds the responses the browser received: the script and the API', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'warc');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'always', '--warc-file', join(repo, 'crawl')]), { timeoutMs: 80_000 });
      ok(run);
      const file = join(repo, 'crawl-00000.warc.gz');
      // Readable to its end by warcio, digests right, and the CDXJ beside it the one warcio's indexer makes of it.
      const records = await checkWarc(file, (pass, what) => expect(pass, what).toBe(true));
      const path = (r: ParsedRecord): string => new URL(r.header('WARC-Target-URI')!).pathname;
      const responses = records.filter((r) => r.type === 'response').map(path);
      expect(responses).toEqual(expect.arrayContaining(['/', '/app.js', '/api/links.json', '/from-api-1.html']));
      // The rendered DOM of each page, as a conversion record referring to the page's response.
      const conversions = records.filter((r) => r.type === 'conversion');
      expect(conversions.map(path).sort()).toEqual(['/', '/from-api-1.html', '/from-api-2.html', '/from-script.html']);
      const shell = conversions.find((r) => path(r) === '/')!;
      const response = records.find((r) => r.type === 'response' && path(r) === '/')!;
      expect(shell.header('WARC-Refers-To')).toBe(response.header('WARC-Record-ID'));
      expect(shell.header('Content-Type')).toBe('text/html');
      expect(shell.block.toString()).toContain('/from-api-2.html');
      const cdxj = await readFile(cdxjOf(file), 'utf8');
      expect(cdxj).toContain(`"url":"http://app.test:${site.port}/","mime":"text/html","digest":"${shell.header('WARC-Payload-Digest')!.slice(5)}"`);
    });
  });

  it('a page that never settles fails by render-timeout and the crawl goes on', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'timeout');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'always', '--render-timeout', '15000'], ['/forever.html', '/']), { timeoutMs: 80_000 });
      ok(run);
      expect(titles(await crawled(repo)), run.stderr + JSON.stringify(await readStats(repo))).toEqual(['From API 1', 'From API 2', 'From script', 'Shell']);
      expect((await readStats(repo))['failuresByCode']).toEqual({ 'render-timeout': 1 });
    });
  });

  it('SIGINT while a page renders leaves it pending; the same command then crawls every page once', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'sigint');
      const args = crawlArgs(site, repo, ['--render', 'always']);
      site.hold = true;
      const first = await runCli(args, {
        timeoutMs: 60_000,
        onSpawn: (child) => void until(() => site.paths().includes('/api/links.json'), 50_000).then(() => child.kill('SIGINT')),
      });
      expect(first.code, first.stderr).toBe(130);
      site.hold = false;
      expect(await crawled(repo).catch(() => [])).toEqual([]);
      const second = await runCli(args, { timeoutMs: 80_000 });
      ok(second);
      expect(titles(await crawled(repo))).toEqual(['From API 1', 'From API 2', 'From script', 'Shell']);
    });
  });

  it('a browser that crashes fails its page with render-crashed, and the next page gets a new one', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'crash');
      site.hold = true;
      const run = await runCli(crawlArgs(site, repo, ['--render', 'always'], ['/', '/from-script.html']), {
        timeoutMs: 80_000,
        onSpawn: (child) =>
          void until(() => site.paths().includes('/api/links.json'), 50_000).then(() => {
            for (const pid of chromiumsUnder(child.pid!)) process.kill(pid, 'SIGKILL');
            site.hold = false;
          }),
      });
      ok(run);
      expect((await readStats(repo))['failuresByCode'], run.stderr).toEqual({ 'render-crashed': 1 });
      expect(titles(await crawled(repo))).toContain('From script');
    });
  });

  it(`a browser context serves ${PAGES_PER_CONTEXT} pages, then a new one is made`, async () => {
    const renderer = new PageRenderer({ executablePath: findChromium(undefined)!, threads: 1, timeoutMs: 20_000 });
    // What a page keeps in its origin's storage lives as long as its context: the count starts again in the next one.
    const html = '<!doctype html><title>-</title><script>const n = Number(localStorage.getItem("n")) + 1; localStorage.setItem("n", n); document.title = String(n);</script>';
    const document = { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from(html), durationMs: 1, startedAt: Date.now(), truncated: false } as unknown as FetchResponse;
    const network = { allowed: () => Promise.resolve(false), fetch: () => Promise.reject(new Error('no request expected')) };
    try {
      const counts: string[] = [];
      for (let i = 0; i < PAGES_PER_CONTEXT + 2; i++) counts.push(/<title>(\d+)<\/title>/.exec(await renderer.render('http://app.test/count.html', document, network))![1]!);
      expect(counts).toEqual([...Array.from({ length: PAGES_PER_CONTEXT }, (_, i) => String(i + 1)), '1', '2']);
    } finally {
      await renderer.close();
    }
  });

  it('render with no Chromium: exit 1, one line naming chromium-path', async () => {
    await withSite(async (site) => {
      const run = await runCli(crawlArgs(site, join(tmp.dir, 'nochromium'), ['--render', 'auto', '--chromium-path', join(tmp.dir, 'no-such-chromium')]));
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/chromium-path.*apt-get install chromium/);
    });
  });
});

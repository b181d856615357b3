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
import { readWarc } from './support/warc-files.js';
import { readStats } from './support/e2e-web.js';

/**
 * app.test: an app shell whose /app.js inserts one link and fetches two more from /api/links.json
 * (and tries /private/secret.json, which robots.txt disallows); the pages it links to are static,
 * each with a script of its own; /forever.html never stops fetching, so it never settles.
 */
const SHELL = '<!doctype html><html><head><title>Shell</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>';
const APP_JS = `
const app = document.getElementById('app');
const add = (href) => { const a = document.createElement('a'); a.href = href; a.textContent = href; app.appendChild(a); };
add('/from-script.html');
fetch('/api/links.json').then((r) => r.json()).then((links) => links.forEach(add));
fetch('/private/secret.json').then((r) => r.json()).then((links) => links.forEach(add), () => undefined);
`;
const STATIC = (title: string): string =>
  `<!doctype html><html><head><title>${title}</title></head><body><p>${'A page whose text and links are all in its HTML. '.repeat(8)}</p><a href="/">home</a><script src="/static.js"></script></body></html>`;
const FOREVER = '<!doctype html><html><head><title>Forever</title></head><body><script>setInterval(() => fetch("/api/tick"), 100);</script></body></html>';

const ROUTES: Record<string, [string, string]> = {
  '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /private/\n'],
  '/': ['text/html', SHELL],
  '/app.js': ['text/javascript', APP_JS],
  '/api/links.json': ['application/json', JSON.stringify(['/from-api-1.html', '/from-api-2.html'])],
  '/private/secret.json': ['application/json', JSON.stringify(['/secret.html'])],
  '/from-script.html': ['text/html', STATIC('From script')],
  '/from-api-1.html': ['text/html', STATIC('From API 1')],
  '/from-api-2.html': ['text/html', STATIC('From API 2')],
  '/static.js': ['text/javascript', 'document.title = document.title;'],
  '/forever.html': ['text/html', FOREVER],
  '/api/tick': ['application/json', '1'],
};

interface Logged {
  readonly path: string;
  readonly start: number;
  end: number;
}

/** A loopback server of ROUTES, each answer 40 ms late (so overlapping requests would show), logging every request. */
class AppSite {
  readonly log: Logged[] = [];
  /** Answers to /api/links.json wait while this is set (the SIGINT test stops the crawl then). */
  hold = false;
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const entry: Logged = { path, start: Date.now(), end: 0 };
      this.log.push(entry);
      const answer = (): void => {
        const route = ROUTES[path];
        entry.end = Date.now();
        if (route === undefined) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': route[0] }).end(route[1]);
      };
      const wait = (): void => void setTimeout(() => (this.hold && path === '/api/links.json' ? wait() : answer()), 40);
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

function crawlArgs(site: AppSite, repo: string, extra: readonly string[], seeds = ['/']): string[] {
  return [
    'crawl', ...seeds.flatMap((s) => ['--seed', `http://app.test:${site.port}${s}`]), ...resolveFlags(['app.test'], site.port),
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
      expect(await readFile(join(repo, `${stored}.rendered.html`), 'utf8')).toContain('/from-api-2.html');
    });
  });

  it('auto: renders the shell, never loads a static page in the browser', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'auto');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'auto']), { timeoutMs: 80_000 });
      ok(run);
      expect(titles(await crawled(repo))).toEqual(['From API 1', 'From API 2', 'From script', 'Shell']);
      expect(site.paths()).toContain('/app.js');
      expect(site.paths()).not.toContain('/static.js');
    });
  });

  it('--warc holds the responses the browser received: the script and the API', async () => {
    await withSite(async (site) => {
      const repo = join(tmp.dir, 'warc');
      const run = await runCli(crawlArgs(site, repo, ['--render', 'always', '--warc-file', join(repo, 'crawl')]), { timeoutMs: 80_000 });
      ok(run);
      const records = await readWarc(join(repo, 'crawl-00000.warc.gz'));
      const responses = records.filter((r) => r.type === 'response').map((r) => new URL(r.header('WARC-Target-URI')!).pathname);
      expect(responses).toEqual(expect.arrayContaining(['/', '/app.js', '/api/links.json', '/from-api-1.html']));
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
      expect((await readStats(repo))['failuresByCode']).toEqual({ 'render-crashed': 1 });
      expect(titles(await crawled(repo))).toContain('From script');
    });
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

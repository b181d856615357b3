import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { HOSTILE_ROOT, hostHooks, html, logLines, readHostileStats, sendHtml, type Handler, type HostileStats, type LogLine } from './support/hostile-web.js';
import { parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/** Each page of dir.test: its head (meta tags), its X-Robots-Tag header, and its links (each to a child page). */
const PAGES: Record<string, { head?: string; header?: string; body?: string }> = {
  '/meta-nofollow': { head: '<meta name="robots" content="nofollow">' },
  '/meta-noindex': { head: '<meta name="ROBOTS" content="noindex, follow">' },
  '/meta-none': { head: '<meta name="robots" content="none">' },
  '/meta-ours': { head: '<meta name="otherbot" content="noindex"><meta name="tarantula" content="nofollow">' },
  '/meta-theirs': { head: '<meta name="otherbot" content="nofollow, noindex">' },
  '/header-nofollow': { header: 'nofollow' },
  '/header-noindex': { header: 'noindex' },
  '/header-theirs': { header: 'otherbot: noindex, nofollow' },
  '/rel': { body: '<a rel="nofollow" href="/rel-target">sponsored</a> <a rel="external NoFollow" href="/rel-target-2">ad</a> <a href="/rel-normal">normal</a>' },
};

/** `/` links every page of PAGES; each of them links its own `-child`. */
const dirSite: Handler = (_req, res, path) => {
  if (path === '/robots.txt') return void res.writeHead(404).end();
  if (path === '/') return sendHtml(res, html('directives', Object.keys(PAGES)));
  const page = PAGES[path];
  if (page === undefined) return sendHtml(res, html(`dir.test ${path}`));
  const body = html(`dir.test ${path}`, [`${path}-child`], page.head ?? '').replace('</body>', `${page.body ?? ''}</body>`);
  sendHtml(res, body, 200, page.header ? { 'X-Robots-Tag': page.header } : {});
};

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
type Run = CrawlRun & { log: LogLine[]; stats: HostileStats; records: SeedRecord[]; paths: string[] };
let obeying: Run;
let ignoring: Run;

async function crawl(name: string, flags: string[]): Promise<Run> {
  const repo = join(tmp.dir, name);
  const run = await web.crawl(['--seed', web.url('dir.test'), '--repository', repo, '--log-level', '2', '--threads', '2', ...flags], { cwd: tmp.dir });
  const records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
  const paths = run.requests.filter((r) => r.path !== '/robots.txt').map((r) => r.path);
  return { ...run, log: logLines(run.stderr), stats: await readHostileStats(repo), records, paths };
}

beforeAll(async () => {
  web = await startWeb('directives', { root: HOSTILE_ROOT, hooks: hostHooks({ 'dir.test': dirSite }), extraHosts: ['dir.test'] });
  tmp = await tempDir();
  [obeying, ignoring] = await Promise.all([crawl('obey', []), crawl('ignore', ['--obey-rel-nofollow', 'false'])]);
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const indexed = (run: Run): string[] => run.records.map((r) => new URL(r.url).pathname);

describe('robots directives in pages and headers', () => {
  it('terminate with exit status 0', () => {
    expect(obeying.code, obeying.stderr).toBe(0);
    expect(ignoring.code, ignoring.stderr).toBe(0);
  });

  it('nofollow (meta, none, our own meta name, X-Robots-Tag): the page is indexed without links, and its links are not followed', () => {
    for (const page of ['/meta-nofollow', '/meta-none', '/meta-ours', '/header-nofollow']) {
      expect(obeying.paths).not.toContain(`${page}-child`);
      const record = obeying.records.find((r) => new URL(r.url).pathname === page);
      if (page !== '/meta-none') expect(record?.links).toEqual([]);
    }
  });

  it('noindex (meta, none, X-Robots-Tag): the page is fetched and counted but not indexed; its links are still followed unless nofollow', () => {
    for (const page of ['/meta-noindex', '/meta-none', '/header-noindex']) {
      expect(obeying.paths).toContain(page);
      expect(indexed(obeying)).not.toContain(page);
      expect(obeying.log).toContainEqual(expect.objectContaining({ url: web.url('dir.test', page), noindex: true }));
    }
    expect(obeying.paths).toContain('/meta-noindex-child');
    expect(obeying.paths).toContain('/header-noindex-child');
    expect(obeying.stats.documents).toBe(obeying.paths.length);
    expect(obeying.stats.documents - indexed(obeying).length).toBe(3);
  });

  it('rules addressed to another crawler are ignored', () => {
    expect(indexed(obeying)).toContain('/meta-theirs');
    expect(indexed(obeying)).toContain('/header-theirs');
    expect(obeying.paths).toContain('/meta-theirs-child');
    expect(obeying.paths).toContain('/header-theirs-child');
    expect(indexed(obeying)).toContain('/meta-ours'); // its noindex was for otherbot
  });

  it('rel="nofollow" links are neither followed nor listed by default, with a log line and a count', () => {
    expect(obeying.paths).not.toContain('/rel-target');
    expect(obeying.paths).not.toContain('/rel-target-2');
    expect(obeying.paths).toContain('/rel-normal');
    const rel = obeying.records.find((r) => new URL(r.url).pathname === '/rel');
    expect(rel?.links.map((l) => new URL(l.url).pathname)).toEqual(['/rel-child', '/rel-normal']);
    expect(obeying.log).toContainEqual(expect.objectContaining({ reason: 'nofollow', url: expect.stringContaining('/rel-target') }));
    expect(obeying.stats.droppedByReason.nofollow).toBe(2);
  });

  it('with obey-rel-nofollow false, rel="nofollow" links are followed and listed like the others', () => {
    expect(ignoring.paths).toContain('/rel-target');
    expect(ignoring.paths).toContain('/rel-target-2');
    const rel = ignoring.records.find((r) => new URL(r.url).pathname === '/rel');
    expect(rel?.links.map((l) => new URL(l.url).pathname)).toEqual(['/rel-child', '/rel-target', '/rel-target-2', '/rel-normal']);
    expect(ignoring.paths).not.toContain('/meta-nofollow-child'); // page-level nofollow still holds
  });
});

import { execFileSync } from 'node:child_process';
import { mkdir, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli, type CliOptions } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

const hostsOf = (name: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${name}-${i}.test`);
/** Shared: the web two commands crawl together; newest: crawled twice, its titles changed between; slow: a crawl that is killed. */
const SITES = { shared: hostsOf('shared', 8), newest: hostsOf('newest', 2), slow: hostsOf('slow', 2) };
const PAGES = { shared: 30, newest: 6, slow: 40 };
let generation = 1;

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  const sites = [
    gridPages(SITES.shared, PAGES.shared, 50), // slow enough that neither command can fetch them all before the other starts
    gridPages(SITES.newest, PAGES.newest, 0, (host, k) => `${host} ${k} generation ${generation}`),
    gridPages(SITES.slow, PAGES.slow, 300),
  ];
  web = await startWeb('grid', { root: HOSTILE_ROOT, hooks: { handle: (req, res, at) => sites.some((s) => s.handle!(req, res, at)) }, extraHosts: Object.values(SITES).flat() });
  redis = await startRedis();
  tmp = await tempDir('tarantula-merge-');
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

const path = (...names: string[]): string => join(tmp.dir, ...names);
const allPages = (site: keyof typeof SITES): string[] => SITES[site].flatMap((h) => Array.from({ length: PAGES[site] }, (_, k) => web.url(h, `/${k}`))).sort();

function crawl(site: keyof typeof SITES, repository: string, flags: readonly string[] = [], opts: CliOptions = {}) {
  return runCli(
    ['crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--seed', web.url(SITES[site][0]!, '/0'), '--scope', 'free-spanning', '--repository', path(repository), '--log-level', '0', ...web.resolve(), ...flags],
    { cwd: tmp.dir, ...opts },
  );
}
const merge = (...args: string[]) => runCli(['merge', ...args.map((a) => path(a))], { cwd: tmp.dir });
const indexOf = async (repository: string) => parseSeedIndex(await readFile(path(repository, 'index.txt'), 'utf8'));
const statsOf = async (repository: string) => JSON.parse(await readFile(path(repository, 'stats.json'), 'utf8')) as { documents: number; completed: boolean };
/** The records of a repository's journal (what the index was made from, with localPath and fetchedAt). */
async function journalRecords(file: string): Promise<{ url: string; localPath: string; title: string }[]> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.startsWith('["d"'));
  return lines.map((l) => (JSON.parse(l) as [string, string, { url: string; localPath: string; title: string }])[2]);
}
const exists = (file: string): Promise<boolean> => stat(file).then(() => true, () => false);
/** What `LC_ALL=C sort` makes of the text: the order pywb's binary search needs. */
const cSort = (text: string): string => execFileSync('sort', [], { input: text, env: { ...process.env, LC_ALL: 'C' } }).toString();

describe('tarantula merge: one repository of a crawl shared over two commands', { timeout: 120_000 }, () => {
  it('indexes every page once, sums the stats, sorts one CDXJ over both WARCs, and report and pagerank work on it', async () => {
    // Two "machines": one Redis and crawl-id, a repository and WARC each, started together.
    const machine = (name: string) => crawl('shared', name, ['--frontier', redis.url, '--crawl-id', 'shared', '--threads', '1', '--warc', path(name, 'warc', 'crawl')]);
    const runs = await Promise.all([machine('a'), machine('b')]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const [a, b] = [await indexOf('a'), await indexOf('b')];
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.length + b.length).toBe(allPages('shared').length);

    const merged = await merge('all', 'a', 'b');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe('');
    expect(merged.stderr).toMatch(/merged 2 repositories into .*all: 240 documents, mirror files 240 hard-linked, 2 WARC files and \d+ CDXJ lines in index\.cdxj/);

    const index = await indexOf('all');
    expect(index.map((r) => r.url).sort()).toEqual(allPages('shared'));
    const stats = await statsOf('all');
    expect(stats.documents).toBe(allPages('shared').length);
    expect(stats.documents).toBe((await statsOf('a')).documents + (await statsOf('b')).documents);
    expect(stats.completed).toBe(true);

    // The mirror: every record's file, hard-linked from the part that fetched it.
    const records = await journalRecords(path('all', '.tarantula', 'journal.jsonl'));
    expect(records).toHaveLength(allPages('shared').length);
    const fetchedBy = new Map<string, string>([...a.map((r) => [r.url, 'a'] as const), ...b.map((r) => [r.url, 'b'] as const)]);
    for (const r of records) {
      const [mine, theirs] = await Promise.all([stat(path('all', r.localPath)), stat(path(fetchedBy.get(r.url)!, r.localPath))]);
      expect(mine.ino, r.localPath).toBe(theirs.ino);
    }

    // One CDXJ, sorted, holding every line of both parts' CDXJs, each pointing at a readable record.
    const cdxj = await readFile(path('all', 'index.cdxj'), 'utf8');
    expect(cdxj).toBe(cSort(cdxj));
    const partLines: string[] = [];
    for (const name of ['a', 'b']) for (const f of await readdir(path(name, 'warc'))) if (f.endsWith('.cdxj')) partLines.push(...(await readFile(path(name, 'warc', f), 'utf8')).split('\n').filter((l) => l !== ''));
    const lines = cdxj.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(partLines.length);
    const archived = new Set<string>();
    for (const line of lines) {
      const j = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string; filename: string };
      expect(j.filename).toMatch(/^archive\/[ab]\/warc\/crawl-0-\d{5}\.warc\.gz$/);
      const file = await open(path('all', j.filename));
      const member = Buffer.alloc(Number(j.length));
      await file.read(member, 0, member.length, Number(j.offset));
      await file.close();
      const head = gunzipSync(member).toString('latin1', 0, 2000);
      expect(head).toMatch(/^WARC\/1\.1\r\n/);
      expect(head).toMatch(/\r\nWARC-Type: (response|revisit)\r\n/);
      expect(head).toContain(`\r\nWARC-Target-URI: ${j.url}\r\n`);
      archived.add(j.url);
    }
    for (const url of allPages('shared')) expect(archived.has(url), url).toBe(true);

    const report = await runCli(['report', path('all')]);
    expect(report.code, report.stderr).toBe(0);
    expect(await readFile(path('all', 'report.html'), 'utf8')).toContain('240');

    const ranks = await runCli(['pagerank', path('all', 'index.txt'), '--top', '0', '--format', 'tsv']);
    expect(ranks.code, ranks.stderr).toBe(0);
    const ranked = ranks.stdout.trim().split('\n').slice(1).map((row) => row.split('\t')[1]!); // rank, url, outDegree, inDegree, score
    expect(ranked.sort()).toEqual(allPages('shared'));
  });
});

describe('tarantula merge: the newest record of a URL two parts hold', { timeout: 120_000 }, () => {
  it('keeps the record fetched last, whatever the order of the parts, with its mirror file', async () => {
    const first = await crawl('newest', 'old');
    expect(first.code, first.stderr).toBe(0);
    generation = 2;
    // Crawled again later: three pages, their titles changed since.
    const again = await crawl('newest', 'new', ['--max-pages', '3', '--threads', '1']);
    expect(again.code, again.stderr).toBe(0);
    const recrawled = (await indexOf('new')).map((r) => r.url);
    expect(recrawled).toHaveLength(3);

    for (const [into, parts] of [['m1', ['old', 'new']], ['m2', ['new', 'old']]] as const) {
      const run = await merge(into, ...parts);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('12 documents (3 older records of the same URLs left out)');
      const index = await indexOf(into);
      expect(index.map((r) => r.url).sort()).toEqual(allPages('newest'));
      for (const r of index) expect(r.title, r.url).toMatch(recrawled.includes(r.url) ? / generation 2$/ : / generation 1$/);
      for (const r of await journalRecords(path(into, '.tarantula', 'journal.jsonl')))
        expect(await readFile(path(into, r.localPath), 'utf8'), r.url).toContain(`<title>${r.title}</title>`);
      // Summed as the workers of one machine are: the fetches of both crawls.
      expect((await statsOf(into)).documents).toBe(12 + 3);
    }
  });
});

describe('tarantula merge refuses, writing nothing', { timeout: 120_000 }, () => {
  it.each([
    ['INTO is one of the parts', ['old', 'old', 'new'], 2, /old is one of the repositories to merge: merge into a new folder/],
    ['INTO is inside a part', ['old/merged', 'old', 'new'], 2, /old\/merged is inside .*old, one of the repositories to merge/],
    ['a part is inside INTO', ['.', 'old'], 2, /old is inside .*: merge into a new folder/],
    ['INTO is not empty', ['m1', 'old', 'new'], 2, /m1 is not empty: merge into a new folder/],
    ['a part is named twice', ['twice', 'old', 'old'], 2, /old is named twice/],
    ['a part does not exist', ['none', 'old', 'missing'], 2, /missing is not a tarantula repository: no such folder/],
    ['a part is a plain folder', ['plain-into', 'old', 'plain'], 2, /plain is not a tarantula repository: no crawl journal in \.tarantula\//],
  ])('when %s', async (_what, args, code, message) => {
    await mkdir(path('plain'), { recursive: true });
    await writeFile(path('plain', 'notes.txt'), 'not a crawl\n');
    const into = args[0]!;
    const existed = await exists(path(into));
    const run = await merge(...args);
    expect(run.code, run.stderr).toBe(code);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    if (!existed) expect(await exists(path(into))).toBe(false);
  });

  it('when a part\'s crawl was killed: it has no stats.json (exit 1; the same command resumes it)', async () => {
    const run = await crawl('slow', 'killed', ['--threads', '1'], {
      onSpawn: (child) => void until(() => web.server.requests.some((r) => SITES.slow.includes(r.host) && r.end > 0), 60_000).then(() => child.kill('SIGKILL')),
    });
    expect(run.signal).toBe('SIGKILL');
    const refused = await merge('from-killed', 'old', 'killed');
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/killed has no stats\.json: its crawl was killed before it ended; run its command again \(it resumes\), then merge\n$/);
    expect(await exists(path('from-killed'))).toBe(false);
  });
});

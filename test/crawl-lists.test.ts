import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStats, startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/** The accept and reject lists of the assignment (SPEC §3), verbatim, bare items included. */
const LISTS = `<crawler-options>
accept-list = {".*\\.[hH][tT][mM][lL]?$", ".*\\.[pP][dD][fF]$" };
Reject-list = { ".*\\.[tT][mM][pP]\\.?.{0,4}$", ^#.*,.*\\?.* };
`;

/** fixtures/e2e/lists/lists.test/start.php (served as text/html) links, in this order: */
const ACCEPTED = ['/page.html', '/PAGE2.HTM', '/doc.pdf', '/DOC2.PDF', '/folder/', '/news'];
const NEVER = [
  '/notes.txt', // not accepted: an extension the accept list lacks
  '/image.png',
  '/draft.tmp', // rejected: .tmp
  '/backup.tmp.old', // rejected: .tmp plus a short suffix
  '/page.tmp.html', // accepted as .html, but the reject list wins
  '/dir/?page=2', // directory-like, but rejected for its query
  '/archive.tar.gz',
  '/scratch%2Etmp', // rejected by its normalized form, scratch.tmp
  '/scratch.tmp',
  '/folder/inner.txt',
];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun;
let records: SeedRecord[];
let repo: string;
beforeAll(async () => {
  web = await startWeb('lists');
  tmp = await tempDir();
  repo = join(tmp.dir, 'repo');
  const conf = join(tmp.dir, 'Crawler.conf');
  await writeFile(conf, LISTS);
  run = await web.crawl([conf, '--seed', web.url('lists.test', '/start.php'), '--repository', repo, '--log-level', '0', '--threads', '1'], { cwd: tmp.dir });
  records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const path = (url: string): string => new URL(url).pathname + new URL(url).search;

describe('the assignment accept and reject lists', () => {
  it('completes', () => {
    expect(run.code, run.stderr).toBe(0);
  });

  it('fetches the seed although the accept list would not take it, and every accepted link, and nothing else', () => {
    const requested = run.pages.map((p) => p.slice('lists.test'.length));
    expect(requested.sort()).toEqual(['/start.php', ...ACCEPTED, '/folder/inner.pdf'].sort());
    for (const p of NEVER) expect(requested).not.toContain(p);
  });

  it('lists only the accepted links, once each, in document order', () => {
    const start = records.find((r) => path(r.url) === '/start.php');
    expect(start?.links.map((l) => path(l.url))).toEqual(ACCEPTED);
    expect(start?.links.map((l) => l.text)).toEqual(['HTML page', 'Upper-case HTM', 'PDF', 'Upper-case PDF', 'A folder', 'News (no extension)']);
    const folder = records.find((r) => path(r.url) === '/folder/');
    expect(folder?.links.map((l) => path(l.url))).toEqual(['/folder/inner.pdf']);
  });

  it('indexes every fetched document', () => {
    expect(records.map((r) => path(r.url)).sort()).toEqual(['/start.php', ...ACCEPTED, '/folder/inner.pdf'].sort());
  });

  it('counts the refused links by reason in stats.json', async () => {
    const { droppedByReason } = await readStats(repo);
    expect(droppedByReason.rejected).toBe(6);
    expect(droppedByReason['not-accepted']).toBe(4);
  });
});

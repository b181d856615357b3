import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portLinks } from '../src/demo/port-links.js';
import { E2E_ROOT, startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { parseJsonl } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/mirror/mirror.test: URL path → the file it is served from, and where SPEC §6 puts it
 * in the mirror (under HOST+PORT).
 */
const CASES: [path: string, served: string, mirrored: string][] = [
  ['/', 'index.html', 'index.html'],
  ['/page', 'page', 'page.html'], // extensionless HTML gets .html
  ['/x.php', 'x.php', 'x.php.html'],
  ['/p?x=1', 'p%3Fx=1', 'p%3Fx=1.html'], // ? written %3F, then .html
  ['/dir/', 'dir/index.html', 'dir/index.html'],
  ['/page.htm', 'page.htm', 'page.htm'],
  ['/doc.pdf', 'doc.pdf', 'doc.pdf'],
  ['/img.png', 'img.png', 'img.png'],
  ['/notes.txt', 'notes.txt', 'notes.txt'], // not HTML: no .html
  ['/data', 'data', 'data'],
  ['/100%25.html', '100%.html', '100%25.html'], // escapes kept as the normalized URL has them
];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let repo: string;
let records: Record<string, unknown>[];
let exit: CrawlRun;

beforeAll(async () => {
  web = await startWeb('mirror');
  tmp = await tempDir();
  repo = join(tmp.dir, 'repo');
  const index = join(tmp.dir, 'index.jsonl');
  exit = await web.crawl(['--seed', web.url('mirror.test'), '--repository', repo, '--index', index, '--format', 'jsonl', '--log-level', '0'], { cwd: tmp.dir });
  records = parseJsonl(await readFile(index, 'utf8'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** The bytes the fixture server sends for a file: text types get the server's port in their links. */
async function servedBytes(file: string): Promise<Buffer> {
  const bytes = await readFile(join(E2E_ROOT, 'mirror', 'mirror.test', file));
  if (/\.(pdf|png)$|^data$/.test(file)) return bytes;
  return Buffer.from(portLinks(['mirror.test'], web.server.port)(bytes.toString('latin1')), 'latin1');
}

describe('the mirror', () => {
  it('fetches every case once', () => {
    expect(exit.code, exit.stderr).toBe(0);
    expect([...exit.pages].sort()).toEqual(CASES.map(([p]) => 'mirror.test' + p).sort());
    expect(records.map((r) => r.url).sort()).toEqual(CASES.map(([p]) => web.url('mirror.test', p)).sort());
  });

  it.each(CASES)('stores %s (file %s) at HOST+PORT/%s, the bytes the server sent', async (path, served, mirrored) => {
    const rec = records.find((r) => r.url === web.url('mirror.test', path));
    const expected = join(repo, `mirror.test+${web.server.port}`, mirrored);
    expect(resolve(repo, String(rec?.localPath))).toBe(expected);
    const stored = await readFile(expected);
    expect(stored.equals(await servedBytes(served))).toBe(true);
    expect(rec?.contentLength).toBe(stored.length);
  });

  it('rewrites the absolute link of the home page with the port, so the stored copy is what was sent', async () => {
    const home = await readFile(join(repo, `mirror.test+${web.server.port}`, 'index.html'), 'latin1');
    expect(home).toContain(`href="http://mirror.test:${web.server.port}/page.htm"`);
  });
});

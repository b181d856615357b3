import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HOSTS, DEMO_ROOT } from '../src/demo/demo-web.js';
import { portLinks } from '../src/demo/port-links.js';
import { DEMO_INDEX } from './support/demo-expected.js';
import { readStats } from './support/e2e-web.js';
import { IMF_FIXDATE, md5, parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { runCli, type CliResult } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CliResult;
let window: { from: number; to: number };
let out: string;
let port: number;
let records: SeedRecord[];
let withPort: (text: string) => string;

/** `npm start` runs the built CLI's `demo` command: the same, in a fresh folder. */
beforeAll(async () => {
  tmp = await tempDir();
  const from = Date.now();
  run = await runCli(['demo'], { cwd: tmp.dir });
  window = { from: Math.floor(from / 1000) * 1000, to: Date.now() };
  out = join(await realpath(tmp.dir), 'demo-output');
  const folders = await readdir(out).catch(() => []);
  port = Number(/^www\.tarantula\.test\+(\d+)$/.exec(folders.find((f) => f.startsWith('www.')) ?? '')?.[1]);
  withPort = portLinks(DEMO_HOSTS, port);
  records = parseSeedIndex(await readFile(join(out, 'index.txt'), 'utf8'));
});
afterAll(() => tmp.remove());

const expected = () => DEMO_INDEX.map((e) => ({ ...e, url: withPort(e.url) }));
const recordOf = (url: string) => records.find((r) => r.url === url);

/** Where SPEC §6 puts a URL of the demo web in the mirror. */
function mirrorPath(url: string): string {
  const u = new URL(url);
  let path = u.pathname.endsWith('/') ? u.pathname + 'index.html' : u.pathname;
  if (path === '/news') path += '.html';
  return join(out, `${u.hostname}+${u.port}`, path);
}

describe('tarantula demo', () => {
  it('exits 0 and says on stderr where the mirror and the index are', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(port).toBeGreaterThan(0);
    expect(run.stderr).toContain(join(out, 'index.txt'));
    expect(run.stderr).toMatch(new RegExp(`mirror:\\s+${out.replace(/[.+]/g, '\\$&')}`));
    expect(run.stdout).toBe('');
  });

  it('indexes exactly the 41 documents of the fixture README, once each; noindex pages have no record', () => {
    expect(records.map((r) => r.url).sort()).toEqual(expected().map((e) => e.url).sort());
    expect(new Set(records.map((r) => r.url)).size).toBe(records.length);
    for (const page of ['robots-noindex.html', 'x-robots-noindex.html', 'sponsored.html', 'unlisted.html', 'private/secret.html']) {
      expect(recordOf(withPort(`http://www.tarantula.test/${page}`))).toBeUndefined();
    }
  });

  it.each(DEMO_INDEX.map((e) => [e.url, e] as const))('%s: MD5, original URL, title, encoding and type', (_, e) => {
    const rec = recordOf(withPort(e.url));
    expect(rec).toBeDefined();
    expect(rec!.md5).toBe(md5(rec!.url));
    expect(e.original.map(withPort)).toContain(rec!.originalUrl);
    expect({ title: rec!.title, encoding: rec!.encoding, type: rec!.type }).toEqual({ title: e.title, encoding: e.encoding, type: e.type });
  });

  it.each(DEMO_INDEX.map((e) => [e.url, e] as const))('%s: link lines in document order with their anchor text', (_, e) => {
    expect(recordOf(withPort(e.url))?.links).toEqual(e.links.map(([url, text]) => ({ url: withPort(url), text })));
  });

  it('gives Last-Modified as the server sent it (the file mtime) and the server Date of the fetch', async () => {
    for (const e of expected()) {
      const rec = recordOf(e.url)!;
      const lastModified = e.file === null ? '-' : new Date(Math.floor((await stat(join(DEMO_ROOT, e.file))).mtimeMs)).toUTCString();
      expect(rec.lastModified, e.url).toBe(lastModified);
      expect(rec.serverDate, e.url).toMatch(IMF_FIXDATE);
      const date = Date.parse(rec.serverDate);
      expect(date >= window.from && date <= window.to, `${e.url} ${rec.serverDate}`).toBe(true);
    }
  });

  it('mirrors every indexed document under HOST+PORT, with the bytes the server sent', async () => {
    for (const e of expected()) {
      const sent = await readFile(join(DEMO_ROOT, e.file ?? 'www.tarantula.test/news'));
      const text = e.type === 'html' || e.type === 'txt';
      const bytes = text ? Buffer.from(withPort(sent.toString('latin1')), 'latin1') : sent;
      expect((await readFile(mirrorPath(e.url))).equals(bytes), e.url).toBe(true);
    }
  });

  it('writes stats.json with the README totals', async () => {
    const stats = await readStats(out);
    expect(stats).toMatchObject({ documents: 43, indexed: 41, redirects: 2, failures: 1, byStatus: { '200': 43, '301': 2, '404': 1 } });
    // two URLs each (secret.html and the drafts; other.example.test's two pages), maybe counted once per link seen
    expect(stats.droppedByReason.robots).toBeGreaterThanOrEqual(2);
    expect(stats.droppedByReason['out-of-scope']).toBeGreaterThanOrEqual(2);
  });
});

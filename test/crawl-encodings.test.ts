import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/encodings/enc.test: one page per rule of SPEC §6's ENCODING (BOM, then the
 * Content-Type charset, then a `<meta>` in the first 1024 bytes, then detection), and labels that
 * the Encoding Standard maps to another name. Path → [title, encoding, type].
 */
const PAGES: [path: string, title: string, encoding: string, type: string][] = [
  ['/', 'Encodings', 'utf-8', 'html'],
  ['/bom-utf8.html', 'Ελληνικά με BOM', 'utf-8', 'html'], // the BOM beats <meta charset="windows-1252">
  ['/bom-utf16le.html', 'Σελίδα UTF-16', 'utf-16le', 'html'],
  ['/header-wins.html', 'Άνοιξη στην Κρήτη', 'iso-8859-7', 'html'], // the header beats <meta charset="windows-1253">
  ['/meta-late.html', 'Δήλωση πολύ αργά', 'utf-8', 'html'], // UTF-8 bytes; its windows-1253 meta is past byte 1024
  ['/undeclared-utf8.html', 'Καλημέρα κόσμε', 'utf-8', 'html'],
  ['/latin1-label.html', 'Café crème', 'windows-1252', 'html'],
  ['/sjis-label.html', '日本語のページ', 'shift_jis', 'html'],
  ['/gb2312-label.html', '中文网页', 'gbk', 'html'],
  ['/meta-utf16.html', 'A meta that says utf-16', 'utf-8', 'html'], // the HTML standard reads a utf-16 meta as utf-8
  ['/greek.txt', '-', 'windows-1253', 'txt'],
  ['/data.json', '-', 'utf-8', 'json'],
  ['/spaces.html', 'Fish & chips, café — <menu>', 'utf-8', 'html'], // entities decoded, white space collapsed
];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let records: SeedRecord[];
let exit: { code: number | null; stderr: string };
beforeAll(async () => {
  web = await startWeb('encodings');
  tmp = await tempDir();
  const repo = join(tmp.dir, 'repo');
  exit = await web.crawl(['--seed', web.url('enc.test'), '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
  records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

describe('the ENCODING and TITLE of the index', () => {
  it('indexes every page', () => {
    expect(exit.code, exit.stderr).toBe(0);
    expect(records.map((r) => new URL(r.url).pathname).sort()).toEqual(PAGES.map(([p]) => p).sort());
  });

  it.each(PAGES)('%s: title %s, encoding %s, type %s', (path, title, encoding, type) => {
    const rec = records.find((r) => new URL(r.url).pathname === path);
    expect({ title: rec?.title, encoding: rec?.encoding, type: rec?.type }).toEqual({ title, encoding, type });
  });

  it('trims the original URL, collapses white space in anchor text, and puts image alt text in its place', () => {
    const home = records.find((r) => new URL(r.url).pathname === '/');
    expect(home?.links.at(-1)).toEqual({ url: web.url('enc.test', '/spaces.html'), text: 'White space and & entities' });
    const spaces = records.find((r) => r.url.endsWith('/spaces.html'));
    expect(spaces?.originalUrl).toBe('spaces.html');
    expect(spaces?.links).toEqual([{ url: web.url('enc.test', '/'), text: 'Back to the home' }]);
  });

  it('reads the links of a UTF-16 page', () => {
    const rec = records.find((r) => r.url.endsWith('/bom-utf16le.html'));
    expect(rec?.links).toEqual([{ url: web.url('enc.test', '/'), text: 'Home' }]);
  });
});

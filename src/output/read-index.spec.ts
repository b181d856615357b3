import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvHeader, formatCsv } from './format-csv.js';
import { formatEdges } from './format-edges.js';
import { formatJsonl } from './format-jsonl.js';
import { formatSeed } from './format-seed.js';
import { detectFormat, type IndexEntry, IndexFormatError, readIndex } from './read-index.js';
import type { IndexRecord } from '../model/index-record.js';

const base: IndexRecord = {
  md5: '9a0364b9e99bb480dd25e1f0284c8555', url: 'http://h/', originalUrl: 'http://h', title: 'Home', encoding: 'utf-8',
  type: 'html', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT', serverDate: null, status: 200, etag: '"e1"',
  localPath: 'h/index.html', contentLength: 10, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 0,
  fetchedAt: '2024-01-01T00:00:00.000Z', durationMs: 5, duplicateOf: null, links: [],
};
const records: IndexRecord[] = [
  { ...base, title: 'tab\there, comma, "quote"', links: [{ url: 'http://h/a', text: 'A\tB' }, { url: 'http://h/b', text: '' }] },
  { ...base, url: 'http://h/a', title: null, encoding: null, type: 'pdf', truncated: true },
  { ...base, url: 'http://h/b', title: 'line\nbreak \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \u4e2d\u6587\u6807\u9898', duplicateOf: 'http://h/', links: [{ url: 'http://h/', text: '\u03b1\u03c1\u03c7\u03b9\u03ba\u03ae \u9996\u9875' }] },
];

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'read-index-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

async function all(source: string | Readable): Promise<IndexEntry[]> {
  const out: IndexEntry[] = [];
  for await (const entry of readIndex(source)) out.push(entry);
  return out;
}
const fromText = (text: string, chunk = 7): Readable => {
  const bytes = Buffer.from(text);
  return Readable.from((function* () { for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk); })());
};
const oneLine = (s: string | null): string | null => (s === null ? null : s.replace(/[\t\n]/g, ' '));

describe('readIndex reads back what each format writes', () => {
  it('jsonl, from a file path: every field', async () => {
    const path = join(dir, 'index.jsonl');
    await writeFile(path, records.map(formatJsonl).join(''));
    expect(await all(path)).toEqual(records);
  });

  it('seed, in chunks that split characters: the eight fields and the links', async () => {
    const entries = await all(fromText(records.map(formatSeed).join('')));
    expect(entries).toEqual(records.map((r) => ({
      md5: r.md5, url: r.url, originalUrl: r.originalUrl, title: oneLine(r.title), encoding: r.encoding, type: r.type,
      lastModified: r.lastModified, serverDate: r.serverDate, links: r.links.map((l) => ({ url: l.url, text: oneLine(l.text) })),
    })));
  });

  it('csv: the scalar fields, quoted titles intact, no links', async () => {
    const entries = await all(fromText(csvHeader + records.map(formatCsv).join('')));
    expect(entries).toEqual(records.map(({ truncated: _, ...r }) => ({ ...r, links: [] })));
  });

  it('edges: one entry per run of the same FROM, pages without links absent', async () => {
    const entries = await all(fromText(records.map(formatEdges).join('')));
    expect(entries).toEqual(records.filter((r) => r.links.length > 0).map((r) => ({
      url: r.url, links: r.links.map((l) => ({ url: l.url, text: '' })),
    })));
  });
});

describe('readIndex on files it did not write', () => {
  it.each([
    ['{"url":"x"}', 'jsonl'], [csvHeader.trimEnd(), 'csv'], ['a\tb\tc\td\te\tf\tg\th', 'seed'], ['http://a/\thttp://b/', 'edges'], ['hello', undefined],
  ])('detects %j as %s', (line, format) => {
    expect(detectFormat(line)).toBe(format);
  });

  it('yields nothing for an empty file, and rejects an unknown format', async () => {
    expect(await all(fromText(''))).toEqual([]);
    await expect(all(fromText('what is this\n'))).rejects.toBeInstanceOf(IndexFormatError);
  });

  it('skips a last line cut short by a crash, but names the line of any other bad record', async () => {
    const good = formatJsonl(records[1] as IndexRecord);
    expect(await all(fromText(good + good.slice(0, 20)))).toHaveLength(1);
    await expect(all(fromText(good + '{bad\n' + good))).rejects.toThrow(/^line 2: /);
    await expect(all(fromText('a\tb\nc\n'))).rejects.toMatchObject({ code: 'INDEX_FORMAT', line: 2 });
  });

  it('accepts CRLF line ends and a byte-order mark', async () => {
    const entries = await all(fromText('\ufeffhttp://a/\thttp://b/\r\nhttp://a/\thttp://c/\r\n'));
    expect(entries).toEqual([{ url: 'http://a/', links: [{ url: 'http://b/', text: '' }, { url: 'http://c/', text: '' }] }]);
  });

  it('streams: a million edges are read lazily, and stopping early stops reading', async () => {
    let produced = 0;
    const source = (): Readable => Readable.from((function* () {
      for (let page = 0; page < 10_000; page++) {
        let chunk = '';
        for (let i = 0; i < 100; i++) chunk += `http://h/${page}\thttp://h/${page}/${i}\n`;
        produced++;
        yield chunk;
      }
    })());
    let pages = 0;
    let edges = 0;
    for await (const entry of readIndex(source())) {
      pages++;
      edges += entry.links.length;
    }
    expect([pages, edges]).toEqual([10_000, 1_000_000]);
    produced = 0;
    for await (const entry of readIndex(source())) {
      expect(entry.links).toHaveLength(100);
      break;
    }
    expect(produced).toBeLessThan(100);
  });
});

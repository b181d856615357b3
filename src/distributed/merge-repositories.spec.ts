import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cdxjLine } from '../archive/cdxj.js';
import type { IndexRecord } from '../model/index-record.js';
import { readIndex } from '../output/read-index.js';
import { readJournal } from '../state/read-journal.js';
import { mergeRepositories } from './merge-repositories.js';

let dir: string;
let notes: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'merge-repositories-'));
  notes = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

const record = (url: string, fetchedAt: string, title: string): IndexRecord => ({
  md5: createHash('md5').update(url).digest('hex'), url, originalUrl: url, title, encoding: 'utf-8', type: 'html', lastModified: null, serverDate: null,
  status: 200, etag: null, localPath: `${new URL(url).host}${new URL(url).pathname}.html`, contentLength: 5, contentMd5: '-', depth: 0, fetchedAt, durationMs: 3, duplicateOf: null, links: [{ url: 'http://a.test/x', text: 'x' }],
});

/** A repository as a crawl leaves it: a journal of `records` (each with its mirror file), stats.json, and optionally a WARC's CDXJ lines. */
async function part(name: string, records: readonly IndexRecord[], opts: { stats?: object; extra?: string[] } = {}): Promise<string> {
  const lines = [JSON.stringify(['start', '2026-12-01T00:00:00Z']), ...records.map((r) => JSON.stringify(['d', r.url, r, 'text/html', true])), ...(opts.extra ?? [])];
  await put(`${name}/.tarantula/journal.jsonl`, lines.join('\n') + '\n');
  for (const r of records) await put(`${name}/${r.localPath}`, `<title>${r.title}</title>`);
  await put(`${name}/stats.json`, JSON.stringify(opts.stats ?? { documents: records.length, seconds: 2, completed: true }));
  return join(dir, name);
}

/** A machine's repository of a shared crawl: its worker's journal of this round (`lines`), the journal of the round before (`previous`), the mirror files. */
async function sharedPart(name: string, previous: readonly IndexRecord[], lines: readonly unknown[][]): Promise<string> {
  const doc = (r: IndexRecord): string => JSON.stringify(['d', r.url, r, 'text/html', true]);
  await put(`${name}/.tarantula/workers/previous.jsonl`, [...previous.map(doc), JSON.stringify(['end', '2026-12-01T10:00:00Z'])].join('\n') + '\n');
  await put(`${name}/.tarantula/workers/0/.tarantula/journal.jsonl`, [JSON.stringify(['start', '2026-12-02T00:00:00Z']), ...lines.map((l) => JSON.stringify(l))].join('\n') + '\n');
  const records = [...previous, ...lines.filter((l) => l[0] === 'd').map((l) => l[2] as IndexRecord)];
  for (const r of records) await put(`${name}/${r.localPath}`, `<title>${r.title}</title>`);
  await put(`${name}/stats.json`, JSON.stringify({ documents: lines.length, completed: true }));
  return join(dir, name);
}

async function indexOf(repository: string): Promise<{ url: string; title: string | null | undefined }[]> {
  const out = [];
  for await (const e of readIndex(join(repository, 'index.txt'))) out.push({ url: e.url, title: e.title });
  return out;
}

describe('mergeRepositories', () => {
  it('takes the record of a page another machine revalidated (a 304 where it had no copy) from the part that holds it, with the new schedule; a page of the round before that no one revalidated stays out', async () => {
    const kept = { ...record('http://a.test/kept', '2026-12-01T09:00:00Z', 'kept'), fetchIntervalHours: 72, nextFetch: '2026-12-04T09:00:00.000Z' };
    const gone = record('http://a.test/gone', '2026-12-01T09:00:00Z', 'gone');
    const fresh = record('http://a.test/fresh', '2026-12-02T09:00:00Z', 'fresh');
    const a = await sharedPart('a', [kept, gone], [['d', fresh.url, fresh, 'text/html', true], ['x', gone.url, 'failed']]);
    const b = await sharedPart('b', [], [['x', kept.url, 'revalidated', { nextFetch: '2026-12-06T21:00:00.000Z', fetchIntervalHours: 108 }]]);
    const into = join(dir, 'all');
    const summary = await mergeRepositories(into, [a, b], (n) => notes.push(n));
    expect(summary.documents).toBe(2);
    expect((await indexOf(into)).map((r) => r.title)).toEqual(['fresh', 'kept']);
    const merged: IndexRecord[] = [];
    for await (const e of readJournal(join(into, '.tarantula', 'journal.jsonl'))) if (e[0] === 'd') merged.push(e[2]!);
    expect(merged[1]).toEqual({ ...kept, fetchIntervalHours: 108, nextFetch: '2026-12-06T21:00:00.000Z' });
    expect(await readFile(join(into, 'a.test/kept.html'), 'utf8')).toBe('<title>kept</title>');
  });

  it('keeps each URL\'s newest record (the first part\'s on a tie), with its mirror file hard-linked, and sums the stats', async () => {
    const a = await part('a', [record('http://a.test/1', '2026-12-01T09:00:00Z', 'a1 old'), record('http://a.test/2', '2026-12-01T09:00:00Z', 'a2 tie'), record('http://a.test/3', '2026-12-01T09:00:00Z', 'a3')], { stats: { documents: 3, seconds: 5, completed: true } });
    const b = await part('b', [record('http://a.test/1', '2026-12-02T09:00:00Z', 'a1 new'), record('http://a.test/2', '2026-12-01T09:00:00Z', 'a2 tie, later part'), record('http://a.test/4', '2026-12-01T09:00:00Z', 'a4')], { stats: { documents: 3, seconds: 7, completed: true } });
    const into = join(dir, 'all');
    const summary = await mergeRepositories(into, [a, b], (n) => notes.push(n));
    expect(summary).toEqual({ parts: 2, documents: 4, older: 2, mirror: { linked: 4, copied: 0, missing: 0 }, warcFiles: 0, cdxjLines: 0 });
    expect(await indexOf(into)).toEqual([
      { url: 'http://a.test/2', title: 'a2 tie' },
      { url: 'http://a.test/3', title: 'a3' },
      { url: 'http://a.test/1', title: 'a1 new' },
      { url: 'http://a.test/4', title: 'a4' },
    ]);
    expect(await readFile(join(into, 'a.test/1.html'), 'utf8')).toBe('<title>a1 new</title>');
    expect((await stat(join(into, 'a.test/1.html'))).ino).toBe((await stat(join(b, 'a.test/1.html'))).ino);
    expect(JSON.parse(await readFile(join(into, 'stats.json'), 'utf8'))).toEqual({ documents: 6, seconds: 7, completed: true });
    const events = [];
    for await (const e of readJournal(join(into, '.tarantula/journal.jsonl'))) events.push(e[0] === 'd' ? [e[0], e[1], e[2]!.title, e[3], e[4]] : [e[0]]);
    expect(events).toEqual([['start'], ['d', 'http://a.test/2', 'a2 tie', 'text/html', true], ['d', 'http://a.test/3', 'a3', 'text/html', true], ['d', 'http://a.test/1', 'a1 new', 'text/html', true], ['d', 'http://a.test/4', 'a4', 'text/html', true], ['end']]);
    expect(notes).toEqual([]);
    expect(await stat(join(into, '.tarantula/tmp')).catch(() => 'gone')).toBe('gone');
  });

  it('leaves out what the part\'s index leaves out (noindex pages), and keeps a record whose mirror file is missing, saying so', async () => {
    const gone = record('http://a.test/gone', '2026-12-01T09:00:00Z', 'gone');
    const hidden = record('http://a.test/hidden', '2026-12-01T09:00:00Z', 'hidden');
    const a = await part('a', [gone], { extra: [JSON.stringify(['d', hidden.url, hidden, 'text/html', false]), JSON.stringify(['d', 'http://a.test/old', null, 'text/html']), '["d", torn'], stats: { completed: false } });
    await rm(join(a, gone.localPath));
    const summary = await mergeRepositories(join(dir, 'all'), [a], (n) => notes.push(n));
    expect(summary).toMatchObject({ documents: 1, mirror: { linked: 0, copied: 0, missing: 1 } });
    expect(await indexOf(join(dir, 'all'))).toEqual([{ url: 'http://a.test/gone', title: 'gone' }]);
    expect(notes).toEqual([`${a}: its crawl was stopped before it completed; the documents it fetched are merged`, '1 mirror file was missing from the parts: their records keep their localPath']);
  });

  it('links every part\'s WARC files under archive/PART/ and sorts their CDXJ lines into one, naming the files from INTO', async () => {
    const line = (url: string, filename: string) => cdxjLine({ url, date: '2026-12-01T09:00:00Z', mime: 'text/html', status: 200, digest: 'D', length: 10, offset: 100, filename });
    const a = await part('m', [record('http://b.test/', '2026-12-01T09:00:00Z', 'b')]);
    await put('m/warc/crawl-0-00000.warc.gz', 'warc a');
    await put('m/warc/crawl-0-00000.cdxj', line('http://z.test/', 'crawl-0-00000.warc.gz') + line('http://b.test/', 'crawl-0-00000.warc.gz') + 'torn 2026');
    const b = await part('other/m', [record('http://c.test/', '2026-12-01T09:00:00Z', 'c')]);
    await put('other/m/crawl-00000.warc.gz', 'warc b');
    await put('other/m/crawl-00000.cdxj', line('http://c.test/', 'crawl-00000.warc.gz'));
    const into = join(dir, 'all');
    expect(await mergeRepositories(into, [a, b], (n) => notes.push(n))).toMatchObject({ warcFiles: 2, cdxjLines: 3 });
    expect(await readFile(join(into, 'index.cdxj'), 'utf8')).toBe(
      line('http://b.test/', 'archive/m/warc/crawl-0-00000.warc.gz') + line('http://c.test/', 'archive/m-2/crawl-00000.warc.gz') + line('http://z.test/', 'archive/m/warc/crawl-0-00000.warc.gz'),
    );
    expect(await readFile(join(into, 'archive/m-2/crawl-00000.warc.gz'), 'utf8')).toBe('warc b');
    expect(notes).toEqual(['1 CDXJ line was not read (torn, or not CDXJ) and left out of index.cdxj']);
    // INTO is a repository like the parts: a later merge takes it whole, its WARC files too.
    const again = join(dir, 'again');
    expect(await mergeRepositories(again, [into], () => undefined)).toMatchObject({ documents: 2, warcFiles: 2, cdxjLines: 3 });
    expect(await readFile(join(again, 'index.cdxj'), 'utf8')).toBe((await readFile(join(into, 'index.cdxj'), 'utf8')).replaceAll('"filename":"archive/', '"filename":"archive/all/archive/'));
  });

  it('copies the mirror files when INTO is on another file system (/dev/shm, a tmpfs)', async () => {
    const a = await part('a', [record('http://a.test/1', '2026-12-01T09:00:00Z', 'a1'), record('http://a.test/2', '2026-12-01T09:00:00Z', 'a2')]);
    const shm = await mkdtemp('/dev/shm/merge-repositories-');
    try {
      expect((await mergeRepositories(join(shm, 'all'), [a], () => undefined)).mirror).toEqual({ linked: 0, copied: 2, missing: 0 });
      expect(await readFile(join(shm, 'all/a.test/2.html'), 'utf8')).toBe('<title>a2</title>');
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });

  it('refuses a folder that is not empty, and writes nothing into it', async () => {
    const a = await part('a', [record('http://a.test/1', '2026-12-01T09:00:00Z', 'a1')]);
    await put('all/keep.txt', 'mine');
    await expect(mergeRepositories(join(dir, 'all'), [a], () => undefined)).rejects.toMatchObject({ exitCode: 2, message: `${join(dir, 'all')} is not empty: merge into a new folder (a merge that was stopped leaves its folder so: remove it and merge again)` });
    await expect(stat(join(dir, 'all/index.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

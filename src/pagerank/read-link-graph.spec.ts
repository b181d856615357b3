import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { csvHeader } from '../output/format-csv.js';
import { FORMATTERS } from '../output/formats.js';
import { IndexFormatError } from '../output/read-index.js';
import type { IndexRecord } from '../model/index-record.js';
import type { LinkGraph } from './link-graph.js';
import { readLinkGraph } from './read-link-graph.js';

const rec = (url: string, links: string[]): IndexRecord => ({
  md5: '0'.repeat(32), url, originalUrl: url, title: 'T, "t"', encoding: 'utf-8', type: 'html', lastModified: null,
  serverDate: null, status: 200, etag: null, localPath: 'h/x.html', contentLength: 1, contentMd5: '0'.repeat(32), depth: 0,
  fetchedAt: '2024-01-01T00:00:00.000Z', durationMs: 1, duplicateOf: null, links: links.map((u) => ({ url: u, text: 'anchor text' })),
});
// a links b (twice) and itself; b links a and c (never fetched); c is only a link target; d has no links
const records = [
  rec('http://h/a', ['http://h/b', 'http://h/a', 'http://h/b']),
  rec('http://h/b', ['http://h/a', 'http://h/c']),
  rec('http://h/d', []),
];
const write = (name: string, text: string): Promise<string> => {
  const path = join(dir, name);
  return writeFile(path, text).then(() => path);
};
const edgesOf = (g: LinkGraph): string[] =>
  g.urls.flatMap((u, i) => [...g.targets.subarray(g.offsets[i], g.offsets[i + 1])].map((t) => `${u} ${g.urls[t]}`)).sort();

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('read-link-graph-')));
afterAll(() => remove());

describe('readLinkGraph', () => {
  it.each(['seed', 'jsonl'] as const)('%s: every record and link target is a node; self-links and repeats dropped', async (format) => {
    const g = await readLinkGraph(await write(`index.${format}`, records.map(FORMATTERS[format]).join('')));
    expect([...g.urls].sort()).toEqual(['http://h/a', 'http://h/b', 'http://h/c', 'http://h/d']);
    expect(edgesOf(g)).toEqual(['http://h/a http://h/b', 'http://h/b http://h/a', 'http://h/b http://h/c']);
    expect(g.inDegree[g.urls.indexOf('http://h/c')]).toBe(1);
  });

  it('edges: the same links; a page without links is absent, as the format cannot hold it', async () => {
    const g = await readLinkGraph(await write('index.edges', records.map(FORMATTERS.edges).join('')));
    expect([...g.urls].sort()).toEqual(['http://h/a', 'http://h/b', 'http://h/c']);
    expect(edgesOf(g)).toEqual(['http://h/a http://h/b', 'http://h/b http://h/a', 'http://h/b http://h/c']);
  });

  it('edges: a FROM that comes back later in the file is one node with its links merged', async () => {
    const g = await readLinkGraph(Readable.from(['a\tb\nb\ta\na\tc\na\tb\n']));
    expect(g.urls).toEqual(['a', 'b', 'c']);
    expect(edgesOf(g)).toEqual(['a b', 'a c', 'b a']);
  });

  it('csv: the pages as nodes and no edges, since csv carries no links', async () => {
    const g = await readLinkGraph(await write('index.csv', csvHeader + records.map(FORMATTERS.csv).join('')));
    expect(g.urls).toEqual(['http://h/a', 'http://h/b', 'http://h/d']);
    expect(g.targets.length).toBe(0);
  });

  it('an empty file is an empty graph', async () => {
    expect((await readLinkGraph(await write('empty.txt', ''))).urls).toEqual([]);
  });

  it('rejects a missing file and a file that is not an index', async () => {
    await expect(readLinkGraph(join(dir, 'missing.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readLinkGraph(await write('notes.txt', 'hello world\n'))).rejects.toBeInstanceOf(IndexFormatError);
    await expect(readLinkGraph(await write('bad.edges', 'a\tb\nbroken line\nc\td\n'))).rejects.toThrow('line 2');
  });
});

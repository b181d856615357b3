import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cdxjLine } from './cdxj.js';
import { byteOrder, sortCdxj } from './sort-cdxj.js';

let dir: string;
beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'sort-cdxj-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A CDXJ file in crawl order (as a WarcSeries writes it): `n` lines of pseudo-random URLs. */
async function cdxjFile(name: string, n: number, seed: number): Promise<string> {
  let text = '';
  for (let i = 0, x = seed; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const url = `http://h${x % 7}.test/${(x >>> 8).toString(36)}${i % 5 === 0 ? '/ü' : ''}`;
    text += cdxjLine({ url, date: `2026-12-0${1 + (x % 3)}T09:00:0${i % 10}Z`, mime: 'text/html', status: 200, digest: 'D', length: 10, offset: 10 * i, filename: `${name}.warc.gz` });
  }
  const path = join(dir, `${name}.cdxj`);
  await writeFile(path, text);
  return path;
}

/** What `LC_ALL=C sort` makes of the same lines. */
const cSort = (text: string): string => execFileSync('sort', [], { input: text, env: { ...process.env, LC_ALL: 'C' } }).toString();

describe('sortCdxj', () => {
  it('writes the lines of several files in the order of LC_ALL=C sort, each naming its WARC as told', async () => {
    const a = await cdxjFile('a', 300, 1);
    const b = await cdxjFile('b', 200, 2);
    const out = join(dir, 'all.cdxj');
    const result = await sortCdxj([{ path: a, filename: (f) => `archive/A/${f}` }, { path: b, filename: (f) => `archive/B/${f}` }], out, { tempDir: join(dir, 'runs') });
    expect(result).toEqual({ lines: 500, skipped: 0 });
    const text = await readFile(out, 'utf8');
    expect(text).toBe(cSort(text));
    const renamed = (await readFile(a, 'utf8')).replaceAll('"filename":"a.warc.gz"', '"filename":"archive/A/a.warc.gz"') + (await readFile(b, 'utf8')).replaceAll('"filename":"b.warc.gz"', '"filename":"archive/B/b.warc.gz"');
    expect(text).toBe(cSort(renamed));
    expect(await readdir(dir)).not.toContain('runs');
  });

  it('gives the same file when memory holds only a few lines (many runs, merged in several passes)', async () => {
    const sources = await Promise.all([3, 4, 5].map(async (seed) => ({ path: await cdxjFile(`f${seed}`, 150, seed), filename: (f: string) => f })));
    await sortCdxj(sources, join(dir, 'one.cdxj'), { tempDir: join(dir, 'r1') });
    await sortCdxj(sources, join(dir, 'many.cdxj'), { tempDir: join(dir, 'r2'), runChars: 2000, fanIn: 3 });
    expect(await readFile(join(dir, 'many.cdxj'), 'utf8')).toBe(await readFile(join(dir, 'one.cdxj'), 'utf8'));
  });

  it('skips and counts lines that are not CDXJ (a torn last line)', async () => {
    const a = await cdxjFile('a', 3, 9);
    await writeFile(a, (await readFile(a, 'utf8')) + 'test,h)/torn 2026120');
    expect(await sortCdxj([{ path: a, filename: (f) => f }], join(dir, 'o.cdxj'), { tempDir: join(dir, 'r') })).toEqual({ lines: 3, skipped: 1 });
  });
});

describe('byteOrder', () => {
  it('orders as UTF-8 bytes do: a prefix first, characters past U+FFFF after U+E000–U+FFFF', () => {
    const words = ['b', 'a b', 'a', '\u{1f600}', '\ufffd', 'z', 'é'];
    expect([...words].sort(byteOrder)).toEqual([...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
    expect([...words].sort(byteOrder)).toEqual(['a', 'a b', 'b', 'z', 'é', '\ufffd', '\u{1f600}']);
  });
});

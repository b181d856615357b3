import { appendFile, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cdxjLine, parseCdxjLine } from './cdxj.js';
import { cdxjPath, warcPath, WarcSeries, type Exchange } from './warc-series.js';

let dir: string;
let base: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tarantula-warc-series-'));
  base = join(dir, 'crawl');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const HEAD = Buffer.alloc(10, 'h');
const open = (maxSize: number, known?: (url: string) => void) =>
  WarcSeries.open({ base, maxSize, warcinfo: async () => HEAD, ...(known ? { known: (l) => known(l.url) } : {}) });
/** An exchange of two members of `size` bytes each (the series does not look inside them). */
const exchange = (n: number, size = 20): Exchange => ({
  members: [Buffer.alloc(size, `q${n}`), Buffer.alloc(size, `r${n}`)],
  lines: (filename, [, at]) =>
    cdxjLine({ url: `http://a.test/${n}`, date: '2026-12-01T09:00:00Z', mime: 'text/html', status: 200, digest: 'X', length: size, offset: at!, filename }),
});
const lines = async (index: number) => (await readFile(cdxjPath(base, index), 'utf8')).trim().split('\n').map((l) => parseCdxjLine(l)!);

describe('WarcSeries', () => {
  it('starts each file with its warcinfo and rolls over before an exchange would pass the size', async () => {
    const series = await open(100);
    for (let n = 0; n < 5; n++) await series.append(exchange(n));
    await series.close();
    // 10 + 40 + 40 = 90; a third exchange would make 130
    expect((await stat(warcPath(base, 0))).size).toBe(90);
    expect((await stat(warcPath(base, 1))).size).toBe(90);
    expect((await stat(warcPath(base, 2))).size).toBe(50);
    expect((await lines(1)).map((l) => [l.url, l.end])).toEqual([['http://a.test/2', 50], ['http://a.test/3', 90]]);
    const file = await readFile(warcPath(base, 1));
    expect(file.subarray(0, 10)).toEqual(HEAD);
    expect(file.subarray(30, 50)).toEqual(Buffer.alloc(20, 'r2')); // the line's offset points at its member
  });

  it('puts an exchange larger than the limit in a file of its own', async () => {
    const series = await open(50);
    await series.append(exchange(0, 100));
    await series.append(exchange(1, 100));
    await series.close();
    expect([(await stat(warcPath(base, 0))).size, (await stat(warcPath(base, 1))).size]).toEqual([210, 210]);
  });

  it('reopens by cutting a torn tail back to the last complete CDXJ line, and appends there', async () => {
    let series = await open(0);
    for (let n = 0; n < 3; n++) await series.append(exchange(n));
    await series.close();
    await appendFile(warcPath(base, 0), Buffer.alloc(13, 't')); // a member cut short
    await appendFile(cdxjPath(base, 0), 'test,a)/torn 2026120'); // a line cut short
    const seen: string[] = [];
    series = await open(0, (url) => seen.push(url));
    expect(seen).toEqual(['http://a.test/0', 'http://a.test/1', 'http://a.test/2']);
    await series.append(exchange(3));
    await series.close();
    expect((await stat(warcPath(base, 0))).size).toBe(10 + 4 * 40);
    expect((await lines(0)).map((l) => l.end)).toEqual([50, 90, 130, 170]);
  });

  it('writes a file that holds only (part of) its warcinfo afresh', async () => {
    await writeFile(warcPath(base, 0), 'hh');
    const series = await open(0);
    await series.append(exchange(0));
    await series.close();
    expect((await readFile(warcPath(base, 0))).subarray(0, 10)).toEqual(HEAD);
    expect((await lines(0)).map((l) => l.end)).toEqual([50]);
  });

  it('refuses a WARC shorter than its CDXJ says, naming both', async () => {
    const series = await open(0);
    await series.append(exchange(0));
    await series.close();
    await writeFile(warcPath(base, 0), HEAD);
    await expect(open(0)).rejects.toThrow(`${warcPath(base, 0)} is 10 bytes, but ${cdxjPath(base, 0)} lists a record ending at byte 50`);
  });

  it('fails every later append once a write failed, naming the file and the cause', async () => {
    // The next file is the full device: its warcinfo cannot be written when the series rolls over.
    const series = await open(60);
    await symlink('/dev/full', warcPath(base, 1));
    await series.append(exchange(0));
    await expect(series.append(exchange(1))).rejects.toThrow(`cannot write the WARC: ${warcPath(base, 1)}: ENOSPC`);
    await expect(series.append(exchange(2))).rejects.toThrow('ENOSPC');
    await series.close();
    expect((await lines(0)).map((l) => l.url)).toEqual(['http://a.test/0']);
  });
});

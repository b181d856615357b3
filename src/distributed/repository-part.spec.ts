import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockRepository } from '../state/repository-lock.js';
import { openPart, partWarcs } from './repository-part.js';

let dir: string;
beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'repository-part-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

async function put(path: string, text = ''): Promise<string> {
  const file = join(dir, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}
const STATS = JSON.stringify({ documents: 1, completed: true });

describe('openPart', () => {
  it('takes the journals of a shared crawl\'s workers, in slot order', async () => {
    const j1 = await put('a/.tarantula/workers/1/.tarantula/journal.jsonl');
    const j0 = await put('a/.tarantula/workers/0/.tarantula/journal.jsonl');
    await put('a/stats.json', STATS);
    await mkdir(join(dir, 'a/.tarantula/lock'), { recursive: true }); // held by none: the crawl ended
    expect(await openPart(join(dir, 'a'))).toEqual({ dir: join(dir, 'a'), journals: [j0, j1], stats: join(dir, 'a/stats.json'), completed: true });
  });

  it('takes a crawl\'s own journal, or the last completed crawl\'s when a recrawl has not begun one; completed as stats.json says', async () => {
    const previous = await put('a/.tarantula/previous.jsonl');
    await put('a/stats.json', JSON.stringify({ completed: false }));
    expect(await openPart(join(dir, 'a'))).toMatchObject({ journals: [previous], completed: false });
    const journal = await put('a/.tarantula/journal.jsonl');
    expect((await openPart(join(dir, 'a'))).journals).toEqual([journal]);
  });

  it.each([
    ['no such folder', async () => {}, 2, /is not a tarantula repository: no such folder/],
    ['a file', () => put('a', 'x'), 2, /is not a tarantula repository: not a folder/],
    ['a folder without a journal', () => put('a/index.txt'), 2, /is not a tarantula repository: no crawl journal in \.tarantula\//],
    ['a killed crawl', () => put('a/.tarantula/journal.jsonl'), 1, /has no stats\.json: its crawl was killed before it ended/],
    ['stats.json that is not JSON', () => Promise.all([put('a/.tarantula/journal.jsonl'), put('a/stats.json', '{')]), 1, /stats\.json is not the stats of a crawl/],
  ])('refuses %s', async (_what, make, exitCode, message) => {
    await make();
    await expect(openPart(join(dir, 'a'))).rejects.toMatchObject({ exitCode, message: expect.stringMatching(message) });
  });
});

describe('openPart and the repository lock', () => {
  it('refuses a repository whose lock a live process holds, and takes one whose holder is gone', async () => {
    await Promise.all([put('a/.tarantula/journal.jsonl'), put('a/stats.json', STATS)]);
    const lock = await lockRepository(join(dir, 'a'));
    try {
      await expect(openPart(join(dir, 'a'))).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(new RegExp(`is being crawled \\(pid ${process.pid} on ${hostname()}, started .*\\): merge it once its crawl has ended`)),
      });
    } finally {
      await lock.release();
    }
    // Above Linux's largest pid (2^22): a holder that cannot be running.
    await put('a/.tarantula/lock/gone.json', JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), started: new Date().toISOString() }));
    await expect(openPart(join(dir, 'a'))).resolves.toMatchObject({ completed: true });
  });
});

describe('partWarcs', () => {
  it('finds each WARC file with its CDXJ beside it, outside .tarantula and the mirror\'s host folders', async () => {
    await put('crawl-00000.warc.gz');
    await put('crawl-00000.cdxj');
    await put('warc/deep/c-0-00001.warc.gz');
    await put('warc/deep/c-0-00001.cdxj');
    await put('warc/lonely-00000.cdxj'); // no WARC beside it
    await put('www.a.test/x-00000.warc.gz'); // crawled files, in the mirror
    await put('www.a.test/x-00000.cdxj');
    await put('.tarantula/w-00000.warc.gz');
    await put('.tarantula/w-00000.cdxj');
    expect(await partWarcs(dir, new Set(['www.a.test']))).toEqual([
      { path: 'crawl-00000.warc.gz', cdxj: join(dir, 'crawl-00000.cdxj') },
      { path: 'warc/deep/c-0-00001.warc.gz', cdxj: join(dir, 'warc/deep/c-0-00001.cdxj') },
    ]);
  });
});

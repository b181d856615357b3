import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalWriter } from './journal-writer.js';

describe('JournalWriter', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-'));
    path = join(dir, 'journal.jsonl');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const lines = async (): Promise<unknown[]> =>
    (await readFile(path, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);

  it('holds lines back for a moment, then writes them in order, one JSON array per line', async () => {
    const j = await JournalWriter.open(path);
    j.append(['a', 'http://a.test/', 0]);
    j.append(['x', 'http://a.test/', 'failed']);
    await sleep(1);
    expect(await readFile(path, 'utf8')).toBe('');
    await sleep(100);
    expect(await lines()).toEqual([['a', 'http://a.test/', 0], ['x', 'http://a.test/', 'failed']]);
    await j.close();
  });

  it('flush() and close() write what is queued at once', async () => {
    const j = await JournalWriter.open(path);
    j.append(['start', 't0']);
    await j.flush();
    expect(await lines()).toEqual([['start', 't0']]);
    j.append(['end', 't1']);
    await j.close();
    expect(await lines()).toEqual([['start', 't0'], ['end', 't1']]);
  });

  it('keeps the order when a large backlog goes out in several writes', async () => {
    const j = await JournalWriter.open(path);
    const big = 'x'.repeat(40_000);
    for (let i = 0; i < 20; i++) {
      j.append(['a', `http://a.test/${i}`, i, big]);
      if (i % 7 === 0) await sleep(0);
    }
    await j.close();
    expect((await lines()).map((e) => (e as unknown[])[2])).toEqual([...Array(20).keys()]);
  });

  it('continues an existing journal', async () => {
    const first = await JournalWriter.open(path);
    first.append(['start', 'a']);
    await first.close();
    const second = await JournalWriter.open(path);
    second.append(['start', 'b']);
    await second.close();
    expect(await lines()).toEqual([['start', 'a'], ['start', 'b']]);
  });
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spillingSeenSet } from './seen-set.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'tarantula-seen-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

/** A random URL: the fingerprints of a crawl's URLs are as good as random. */
const randomUrl = (): string => `http://h${Math.floor(Math.random() * 1e6)}.test/${Math.random().toString(36).slice(2)}/${Math.random().toString(36).slice(2)}`;

/** Lets a merge under way in the background go on (it reads and writes through the thread pool). */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('spillingSeenSet', () => {
  it('touches no file within its budget', async () => {
    const seen = spillingSeenSet({ dir: join(dir, 'seen'), budgetBytes: 4 << 20 });
    for (let i = 0; i < 100_000; i++) seen.add(`http://a.test/${i}`);
    expect(seen.size).toBe(100_000);
    expect(seen.spilled).toBe(0);
    expect(existsSync(join(dir, 'seen'))).toBe(false);
    await seen.close();
  });

  it('is exact far past its budget: every URL added is seen, none of the others is', async () => {
    // 512 KiB: a table of 32,768 slots, spilled every 24,576 URLs, and a filter of 1 Mbit, 7 bits a URL at the end.
    const seen = spillingSeenSet({ dir: join(dir, 'seen'), budgetBytes: 512 << 10 });
    const added = Array.from({ length: 150_000 }, randomUrl);
    for (let i = 0; i < added.length; i++) {
      expect(seen.add(added[i]!)).toBe(true);
      if (i % 25_000 === 0) await settle();
    }
    expect(seen.spilled).toBe(6 * 24_576);
    expect(seen.size).toBe(150_000);
    await settle();
    expect(added.every((u) => seen.has(u))).toBe(true);
    expect(added.every((u) => !seen.add(u))).toBe(true);
    const others = Array.from({ length: 150_000 }, randomUrl);
    expect(others.filter((u) => seen.has(u))).toEqual([]);
    expect(seen.size).toBe(150_000);
    await seen.close();
    expect(existsSync(join(dir, 'seen'))).toBe(false);
  }, 180_000);

  it('merges its runs: a handful on disk after many spills, exact before, during and after each merge', async () => {
    const seen = spillingSeenSet({ dir: join(dir, 'seen'), budgetBytes: 64 << 10 });
    const added: string[] = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 3_000; i++) {
        const url = randomUrl();
        added.push(url);
        expect(seen.add(url)).toBe(true);
      }
      // Looked up while a merge may be under way: the runs it reads stay until the merged one replaces them.
      for (let i = 0; i < added.length; i += 97) expect(seen.add(added[i]!)).toBe(false);
      await settle();
    }
    // A spill every 3,072 URLs (a full table of 4,096 slots): 39 spills, and once the merges caught
    // up, about a run for each bit of 39 (how many exactly depends on when each merge ran).
    expect(seen.spilled).toBe(39 * 3_072);
    while (seen.runs > 6) await settle();
    const files = await readdir(join(dir, 'seen'));
    expect(files.filter((f) => !f.endsWith('.merging')).length).toBeLessThanOrEqual(7);
    expect(added.every((u) => seen.has(u))).toBe(true);
    await seen.close();
  }, 180_000);

  it("answers a URL found in the runs again and again, as a site's home page is, exactly and from memory", async () => {
    const seen = spillingSeenSet({ dir: join(dir, 'seen'), budgetBytes: 64 << 10 });
    const home = Array.from({ length: 50 }, (_, h) => `http://h${h}.test/`);
    for (const u of home) seen.add(u);
    const added: string[] = [];
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 3_000; i++) {
        const url = randomUrl();
        added.push(url);
        seen.add(url);
      }
      // Every page links home: found in the runs, then kept; the URLs never added stay unseen beside them.
      for (const u of home) expect(seen.add(u)).toBe(false);
      for (let i = 0; i < 1_000; i++) expect(seen.has(randomUrl())).toBe(false);
      await settle();
    }
    expect(seen.spilled).toBeGreaterThan(50_000);
    expect(added.every((u) => seen.has(u)) && home.every((u) => seen.has(u))).toBe(true);
    expect(seen.size).toBe(50 + 60_000);
    await seen.close();
  }, 180_000);

  it('starts afresh in a folder an earlier process left runs in', async () => {
    const first = spillingSeenSet({ dir: join(dir, 'seen'), budgetBytes: 64 << 10 });
    for (let i = 0; i < 20_000; i++) first.add(`http://a.test/${i}`);
    expect(first.spilled).toBeGreaterThan(0);
    // Killed: close() never ran, its runs stay. A new process knows nothing of them.
    const second = spillingSeenSet({ dir: join(dir, 'seen'), budgetBytes: 64 << 10 });
    for (let i = 0; i < 20_000; i++) expect(second.has(`http://a.test/${i}`)).toBe(false);
    for (let i = 20_000; i < 40_000; i++) second.add(`http://a.test/${i}`);
    for (let i = 0; i < 20_000; i++) expect(second.has(`http://a.test/${i}`)).toBe(false);
    for (let i = 20_000; i < 40_000; i++) expect(second.has(`http://a.test/${i}`)).toBe(true);
    await second.close();
  });

  it('keeps what it cannot write in memory and says why, once', async () => {
    // A file where its folder should be: the first spill cannot make the folder.
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'blocked'), '');
    const seen = spillingSeenSet({ dir: join(dir, 'blocked', 'seen'), budgetBytes: 64 << 10 });
    const urls = Array.from({ length: 30_000 }, (_, i) => `http://a.test/${i}`);
    for (const u of urls) expect(seen.add(u)).toBe(true);
    const err = await seen.failed;
    expect((err as NodeJS.ErrnoException).code).toBe('ENOTDIR');
    expect(seen.spilled).toBe(0);
    expect(urls.every((u) => seen.has(u) && !seen.add(u))).toBe(true);
    await seen.close();
  });
});

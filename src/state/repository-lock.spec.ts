import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockRepository, RepositoryInUse, runningHolder } from './repository-lock.js';
import { tempDir } from '../../test/support/temp-dir.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.remove();
});

const lockDir = (repo: string): string => join(repo, '.tarantula', 'lock');
/** Writes a holder's file as another process would. */
async function holder(repo: string, pid: number, host = hostname()): Promise<void> {
  await mkdir(lockDir(repo), { recursive: true });
  await writeFile(join(lockDir(repo), `${host}.${pid}.json`), JSON.stringify({ pid, host, started: '2026-12-02T06:00:00.000Z' }));
}

describe('lockRepository', () => {
  it('holds a repository with a file of its own, counted when this process takes it again, gone with the last release', async () => {
    const first = await lockRepository(tmp.dir);
    const again = await lockRepository(tmp.dir);
    expect(await readdir(lockDir(tmp.dir))).toEqual([`${hostname()}.${process.pid}.json`]);
    expect(await runningHolder(tmp.dir)).toMatchObject({ pid: process.pid, host: hostname() });
    await again.release();
    expect(await readdir(lockDir(tmp.dir))).toHaveLength(1);
    await first.release();
    expect(await readdir(lockDir(tmp.dir))).toEqual([]);
    expect(await runningHolder(tmp.dir)).toBeUndefined();
  });

  it('refuses a repository a live process holds, naming it, and withdraws its own file', async () => {
    await holder(tmp.dir, process.ppid);
    const err = await lockRepository(tmp.dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryInUse);
    expect((err as Error).message).toContain(`is in use by another crawl (pid ${process.ppid} on ${hostname()}, started 2026-12-02T06:00:00.000Z)`);
    expect(await readdir(lockDir(tmp.dir))).toEqual([`${hostname()}.${process.ppid}.json`]);
  });

  it('takes over the file of a process of this machine that is gone, and counts one of another machine as running', async () => {
    await holder(tmp.dir, 2 ** 22 + 12345); // above pid_max: no such process
    const lock = await lockRepository(tmp.dir);
    expect(await readdir(lockDir(tmp.dir))).toEqual([`${hostname()}.${process.pid}.json`]);
    await lock.release();
    await holder(tmp.dir, 2 ** 22 + 12345, 'elsewhere.example');
    await expect(lockRepository(tmp.dir)).rejects.toThrow(/pid 4206649 on elsewhere\.example, started .*remove .*elsewhere\.example\.4206649\.json/);
  });

  it('lets a worker in under the command that holds the repository, and no one else', async () => {
    await holder(tmp.dir, process.ppid);
    const worker = await lockRepository(tmp.dir, { under: process.ppid });
    await worker.release();
    await expect(lockRepository(join(tmp.dir, 'other'), { under: process.ppid })).rejects.toThrow(/does not hold the repository/);
  });
});

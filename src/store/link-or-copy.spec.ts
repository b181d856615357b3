import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkOrCopy } from './link-or-copy.js';

let dir: string;
beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'link-or-copy-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('linkOrCopy', () => {
  it('hard-links within one file system', async () => {
    await writeFile(join(dir, 'a'), 'body');
    expect(await linkOrCopy(join(dir, 'a'), join(dir, 'b'))).toBe('linked');
    expect((await stat(join(dir, 'b'))).ino).toBe((await stat(join(dir, 'a'))).ino);
  });

  it('copies across file systems (/dev/shm is a tmpfs of its own)', async () => {
    const shm = await mkdtemp('/dev/shm/link-or-copy-');
    try {
      await writeFile(join(dir, 'a'), 'body');
      expect(await linkOrCopy(join(dir, 'a'), join(shm, 'b'))).toBe('copied');
      expect(await readFile(join(shm, 'b'), 'utf8')).toBe('body');
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });

  it('replaces nothing: fails when the target exists, linking or copying, and when the source is missing', async () => {
    await writeFile(join(dir, 'a'), 'a');
    await writeFile(join(dir, 'b'), 'b');
    await expect(linkOrCopy(join(dir, 'a'), join(dir, 'b'))).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(linkOrCopy(join(dir, 'none'), join(dir, 'c'))).rejects.toMatchObject({ code: 'ENOENT' });
    const shm = await mkdtemp('/dev/shm/link-or-copy-');
    try {
      await writeFile(join(shm, 'b'), 'theirs');
      await expect(linkOrCopy(join(dir, 'a'), join(shm, 'b'))).rejects.toMatchObject({ code: 'EEXIST' }); // the copy too
      expect(await readFile(join(shm, 'b'), 'utf8')).toBe('theirs');
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });
});

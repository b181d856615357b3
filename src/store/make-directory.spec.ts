import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { makeDirectory } from './make-directory.js';

describe('makeDirectory', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    tmp = await tempDir();
  });
  afterEach(() => tmp.remove());

  it('makes every missing directory of a path, and leaves one that exists as it is', async () => {
    const deep = join(tmp.dir, 'a', 'b', 'c');
    await makeDirectory(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
    await writeFile(join(deep, 'kept'), 'x');
    await makeDirectory(deep);
    await makeDirectory(join(tmp.dir, 'a'));
    expect((await stat(join(deep, 'kept'))).isFile()).toBe(true);
  });

  it('takes two makers of the same path at once', async () => {
    const deep = join(tmp.dir, 'x', 'y', 'z');
    await Promise.all([makeDirectory(deep), makeDirectory(deep), mkdir(join(tmp.dir, 'x'), { recursive: true })]);
    expect((await stat(deep)).isDirectory()).toBe(true);
  });

  it('fails as Node does through a regular file (ENOTDIR) and on one (EEXIST)', async () => {
    const file = join(tmp.dir, 'file');
    await writeFile(file, 'x');
    await expect(makeDirectory(join(file, 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(makeDirectory(file)).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('fails at once under /proc, where Node\'s recursive mkdir spins for ever', async () => {
    await expect(makeDirectory('/proc/tarantula-no-such-dir/warc')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

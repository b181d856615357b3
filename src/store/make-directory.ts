import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` that always ends. Node's own (`mkdir(dir, { recursive: true })`) spins at 100 % CPU for
 * ever when a parent exists but answers ENOENT for any child, as /proc does: it takes ENOENT for a
 * missing parent and tries again. Here the missing directories are made one by one from the nearest
 * one that exists, so such a path fails at once with ENOENT naming it; a path through a regular file
 * fails with ENOTDIR, and a regular file at `dir` itself with EEXIST (as Node's do), saying it is no folder.
 *
 * @example
 * await makeDirectory('out/warc'); // makes out and out/warc if they are not there
 */
export async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    const found = await stat(d).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (found !== undefined) {
      if (d === resolve(dir) && !found.isDirectory()) throw Object.assign(new Error(`EEXIST: ${dir} is not a folder`), { code: 'EEXIST', path: dir });
      break;
    }
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    await mkdir(d).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err; // made meanwhile by someone else: fine
    });
  }
}

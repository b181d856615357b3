import { constants } from 'node:fs';
import { copyFile, link } from 'node:fs/promises';

/** link(2) refusing: another file system, one that has no hard links, or a file with as many links as it may have. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/**
 * Makes `to` a hard link to `from` where the file system allows (no bytes copied, no space taken), else a copy.
 * Either way it fails (EEXIST) when something stands at `to`: nothing is replaced.
 *
 * @example
 * await linkOrCopy('a/www.a.test/index.html', 'all/www.a.test/index.html') //=> 'linked'
 */
export async function linkOrCopy(from: string, to: string): Promise<'linked' | 'copied'> {
  try {
    await link(from, to);
    return 'linked';
  } catch (err) {
    if (!CANNOT_LINK.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  await copyFile(from, to, constants.COPYFILE_EXCL);
  return 'copied';
}

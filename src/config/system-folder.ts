import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';

/**
 * Top-level folders of the system (Linux's FHS, and macOS's), refused themselves as a repository:
 * the crawl writes index.txt, stats.json, .tarantula and a folder per host straight into its
 * repository. /tmp and /var/tmp are among them because every user can write there: another user
 * could set a link where the crawl writes its index. /mnt, /media, /opt and /srv stay allowed (a
 * disk of one's own is often mounted there).
 */
const SYSTEM = new Set([
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/root', '/run',
  '/sbin', '/snap', '/sys', '/tmp', '/usr', '/var', '/var/tmp',
  '/Applications', '/Library', '/System', '/Users', '/Volumes', '/cores', '/private',
]);
/** Folders of the kernel's own files: nothing under them is a place for a crawl. */
const KERNEL = ['/proc', '/sys', '/dev'];

/** `path` with its links resolved as far as it exists (a repository not made yet has no real path of its own). */
function realFolder(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realFolder(parent), basename(path));
  }
}

/**
 * Why `folder` cannot be a crawl's repository, or undefined when it can: the root (of any drive), a
 * top-level system folder itself, anything under /proc, /sys or /dev, or the user's home folder
 * (a crawl writes index.txt and a folder per host there, among the user's own files; on a file
 * system that ignores case, a host named `documents` would write into ~/Documents). Checked on the
 * path as written and on the folder it leads to through links.
 *
 * @example
 * refusedRepository('/') //=> 'the root folder'
 * refusedRepository('/proc/self') //=> 'under /proc, the kernel\'s own files'
 * refusedRepository('./out') //=> undefined
 */
export function refusedRepository(folder: string): string | undefined {
  const lexical = resolve(folder);
  const home = resolve(homedir());
  for (const path of new Set([lexical, realFolder(lexical)])) {
    if (dirname(path) === path) return 'the root folder';
    if (SYSTEM.has(path)) return `the system folder ${path}`;
    const kernel = KERNEL.find((k) => path.startsWith(k + sep));
    if (kernel !== undefined) return `under ${kernel}, the kernel's own files`;
    if (path === home) return `your home folder (${home})`;
  }
  return undefined;
}

import { createHash } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { link, lstat, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { threadId } from 'node:worker_threads';
import { linkOrCopy } from './link-or-copy.js';
import { mirrorPath } from './mirror-path.js';

/** Errors that mean "something already stands at that name" (a file, or a folder). */
const TAKEN = new Set(['EEXIST', 'ENOTDIR', 'EISDIR', 'ENOTEMPTY', 'EPERM', 'EACCES']);
let tempCounter = 0;

/** The file operations a store uses: awaited, so either promises or plain values will do. */
interface FileOps {
  mkdir(path: string, opts?: { recursive: boolean }): unknown;
  writeFile(path: string, data: Uint8Array): unknown;
  rename(from: string, to: string): unknown;
  link(from: string, to: string): unknown;
  unlink(path: string): unknown;
  rm(path: string, opts: { force: boolean }): unknown;
  lstat(path: string): { isDirectory(): boolean } | Promise<{ isDirectory(): boolean }>;
}

const ASYNC_OPS: FileOps = { mkdir, writeFile, rename, link, unlink, rm, lstat };
/** For a worker thread of its own: no thread-pool round trip per call, and blocking harms no one. */
const SYNC_OPS: FileOps = { mkdir: mkdirSync, writeFile: writeFileSync, rename: renameSync, link: linkSync, unlink: unlinkSync, rm: rmSync, lstat: lstatSync };

/** Where documents are written before being linked (or renamed) into place, relative to the repository. */
export const MIRROR_TEMP_DIR = '.tarantula/tmp';

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

/** What `link` answers on a file system without hard links (FAT, some network shares). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EMLINK']);

/** What tells a colliding name apart: `~` and the first 8 hex digits of the MD5 of its URL; computed only on a collision. */
const tagOf = (url: URL): string => '~' + createHash('md5').update(url.href).digest('hex').slice(0, 8);

/** `name~1a2b3c4d`, the suffix before a short extension so the file keeps its type (`a~1a2b3c4d.pdf`). */
const tagName = (name: string, tag: string, isFile: boolean): string => {
  const dot = isFile ? name.lastIndexOf('.') : -1;
  return dot > 0 && name.length - dot <= 9 ? name.slice(0, dot) + tag + name.slice(dot) : name + tag;
};

/**
 * The local mirror of a crawl (SPEC §6): each document at `REPOSITORY/HOST/PATH` as
 * {@link mirrorPath} names it. Every file is written whole (a temporary file under `.tarantula/tmp`,
 * then linked or renamed into place), so a crash never leaves half a document under its name.
 *
 * No two URLs share a file (`/` and `/index.html`, `/news` and `/news.html`, `/a:b` and `/a%3Ab`):
 * a document takes its name only if nothing stands there yet, atomically (a hard link, which fails
 * when the name is taken, also by another thread or another worker process of the crawl). When a
 * file or a folder stands at the name, or a file where a folder is needed, the later document's
 * colliding name gets `~` and the first 8 hex digits of the MD5 of its URL; that name is its URL's
 * alone, so a copy found there is overwritten. The files of the mirror are therefore the claims
 * themselves: nothing in memory grows with the pages, claims hold across threads, processes, resume
 * and recrawl, and a file the crawl did not write for that URL (a user's own) is never replaced. A
 * recrawl passes each page's path of the last crawl (`previous`), which it overwrites in place.
 * Folders already made are remembered, so a page costs one write, one link and one unlink.
 *
 * @example
 * const store = new MirrorStore('./testbedcsdics');
 * await store.save(new URL('http://www.ics.forth.gr/'), true, body) //=> 'www.ics.forth.gr/index.html'
 * await store.read('www.ics.forth.gr/index.html')                  //=> <Buffer ...>
 */
export class MirrorStore {
  readonly root: string;
  /** Folders (relative, `/`-separated) known to exist. Grows with the number of folders, not pages. */
  private readonly dirs = new Set<string>();
  private tempReady: Promise<void> | undefined;

  private readonly fs: FileOps;

  /** `sync` does its file operations synchronously: for a worker thread that does nothing else (the document pool). */
  /** Top-level names no host folder may take (see {@link mirrorPath}). */
  private readonly reserved: readonly string[] | undefined;

  /**
   * `sync` does its file operations synchronously: for a worker thread that does nothing else (the document pool).
   * `reserved`: the top-level names of the crawl's own files, as `reservedNames` makes them.
   */
  constructor(repository: string, opts: { sync?: boolean; reserved?: readonly string[] } = {}) {
    this.root = resolve(repository);
    this.fs = opts.sync ? SYNC_OPS : ASYNC_OPS;
    this.reserved = opts.reserved;
  }

  /**
   * Stores one document; concurrent saves are safe, also into the same new folder.
   * @param previous where the last crawl stored this URL (a recrawl): that copy is replaced
   * @returns where it went, relative to the repository, with `/` separators
   */
  async save(url: URL, isHtml: boolean, body: Uint8Array, previous?: string): Promise<string> {
    const segments = mirrorPath(url, isHtml, this.reserved);
    const name = segments.pop() as string; // mirrorPath gives the host folder and a file name at least
    const dir = await this.ensureDir(segments, url);
    // Temporary files live apart from the mirror, so a kill leaves no litter among the documents
    // (the folder is emptied when the next crawl starts); a rename within one file system is atomic.
    this.tempReady ??= Promise.resolve(this.fs.mkdir(join(this.root, MIRROR_TEMP_DIR), { recursive: true })).then(() => undefined);
    await this.tempReady;
    // The pool's worker and the main thread may both be saving: their counters are their own.
    const temp = join(this.root, MIRROR_TEMP_DIR, `${process.pid}-${threadId}-${tempCounter++}`);
    try {
      await this.fs.writeFile(temp, body);
      let target = `${dir}/${name}`;
      if (target === previous ? await this.place(temp, target) : await this.claim(temp, target)) return target;
      // This name is this URL's alone: a copy found there is its own (of a run stopped before it recorded it).
      target = `${dir}/${tagName(name, tagOf(url), true)}`;
      if (!(await this.place(temp, target))) throw new Error(`mirror: cannot store ${url.href} at ${target}`);
      return target;
    } catch (err) {
      await this.fs.rm(temp, { force: true });
      throw err;
    }
  }

  /** Writes a companion of a stored document (its rendered DOM) beside it, at `localPath` + `suffix`, and returns that path. */
  async saveBeside(localPath: string, suffix: string, body: Uint8Array): Promise<string> {
    await this.fs.writeFile(join(this.root, localPath + suffix), body);
    return localPath + suffix;
  }

  /**
   * Takes another repository's copy of a document into this mirror at the `localPath` it had there,
   * hard-linked where the file system allows, else copied; a name that is taken gets the URL's tag as
   * in {@link save}. Nothing already there is replaced. Refuses a `localPath` that would lead outside
   * the repository.
   * @returns where it went, and whether it was linked or copied
   */
  async adopt(url: URL, localPath: string, from: string): Promise<{ localPath: string; how: 'linked' | 'copied' }> {
    const segments = localPath.split('/');
    if (segments.length < 2 || segments.some((s) => s === '' || s === '.' || s === '..')) throw new Error(`mirror: ${localPath} is outside the repository`);
    const name = segments.pop()!;
    const dir = await this.ensureDir(segments, url);
    for (const target of [`${dir}/${name}`, `${dir}/${tagName(name, tagOf(url), true)}`]) {
      try {
        return { localPath: target, how: await linkOrCopy(from, join(this.root, target)) };
      } catch (err) {
        if (!TAKEN.has(codeOf(err) ?? '')) throw err;
      }
    }
    throw new Error(`mirror: cannot store ${url.href} in ${dir}`);
  }

  /**
   * The stored copy at a `localPath` that {@link save} returned (e.g. for a 304 on recrawl).
   * Refuses paths that would lead outside the repository, since index files can be edited by hand.
   */
  async read(localPath: string): Promise<Buffer> {
    const path = resolve(this.root, localPath);
    if (!path.startsWith(this.root + sep)) throw new Error(`mirror: ${localPath} is outside the repository`);
    return readFile(path);
  }

  /** Puts the temporary file at `target` unless anything stands there; false when something does. */
  private async claim(temp: string, target: string): Promise<boolean> {
    const path = join(this.root, target);
    try {
      await this.fs.link(temp, path);
    } catch (err) {
      const code = codeOf(err) ?? '';
      if (code === 'EEXIST') return false;
      if (!NO_LINKS.has(code)) throw err;
      // No hard links here: a look, then a rename (two threads may then both take one new name).
      if (await this.exists(target)) return false;
      await this.fs.rename(temp, path);
      return true;
    }
    await this.fs.unlink(temp);
    return true;
  }

  /** Renames the temporary file over `target`; false when a folder stands there. */
  private async place(temp: string, target: string): Promise<boolean> {
    try {
      await this.fs.rename(temp, join(this.root, target));
      return true;
    } catch (err) {
      if (!TAKEN.has(codeOf(err) ?? '') || !(await this.isDir(target))) throw err;
      return false;
    }
  }

  /** Makes the folders of `segments` (fast path: one recursive mkdir) and returns the folder used. */
  private async ensureDir(segments: readonly string[], url: URL): Promise<string> {
    const wanted = segments.join('/');
    if (this.dirs.has(wanted)) return wanted;
    try {
      await this.fs.mkdir(join(this.root, wanted), { recursive: true });
      for (let i = segments.length, path = wanted; i > 0; i--, path = path.slice(0, path.lastIndexOf('/'))) {
        if (this.dirs.has(path)) break;
        this.dirs.add(path);
      }
      return wanted;
    } catch (err) {
      if (!TAKEN.has(codeOf(err) ?? '')) throw err;
    }
    // A file stands where a folder is needed: walk down, giving the blocked folder this URL's tag.
    let path = '';
    for (const segment of segments) {
      let next = path === '' ? segment : `${path}/${segment}`;
      if (!(await this.makeDir(next))) {
        next = path === '' ? segment + tagOf(url) : `${path}/${segment}${tagOf(url)}`;
        if (!(await this.makeDir(next))) throw new Error(`mirror: cannot make folder ${next}`);
      }
      path = next;
    }
    return path;
  }

  /** Makes one folder whose parent exists; false when a file stands there. */
  private async makeDir(path: string): Promise<boolean> {
    if (this.dirs.has(path)) return true;
    try {
      await this.fs.mkdir(join(this.root, path));
    } catch (err) {
      const code = codeOf(err);
      if (code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
      if (!(await this.isDir(path))) return false;
    }
    this.dirs.add(path);
    return true;
  }

  private async exists(path: string): Promise<boolean> {
    try {
      await this.fs.lstat(join(this.root, path));
      return true;
    } catch (err) {
      if (codeOf(err) === 'ENOENT') return false;
      throw err;
    }
  }

  private async isDir(path: string): Promise<boolean> {
    try {
      return (await this.fs.lstat(join(this.root, path))).isDirectory();
    } catch {
      return false;
    }
  }
}

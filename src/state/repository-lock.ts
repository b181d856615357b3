import { readFileSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { makeDirectory } from '../store/make-directory.js';
import { STATE_DIR } from './crawl-state.js';

/** Who holds a repository: one file of `.tarantula/lock/` each. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** When it took the repository (ISO 8601). */
  readonly started: string;
  /** The process's start time in clock ticks after boot (Linux): a pid used again by another process is told apart. */
  readonly ticks?: number;
  /** The command whose lock this process runs under (a worker process of `--workers N`: its supervisor's pid). */
  readonly under?: number;
}

/** The repository is in use by another crawl (SPEC §15): the command ends with exit 1. */
export class RepositoryInUse extends Error {
  readonly code = 'repository-in-use';
  constructor(
    readonly repository: string,
    readonly holder: LockHolder,
    readonly file: string,
  ) {
    const worker = holder.under === undefined ? '' : `, a worker of pid ${holder.under}`;
    super(
      `the repository ${repository} is in use by another crawl (pid ${holder.pid}${worker} on ${holder.host}, started ${holder.started}); ` +
        `wait for it to end, or stop it. If no such crawl runs any more (its machine or container is gone), remove ${file}`,
    );
  }
}

/** A repository held by this process until {@link release}. */
export interface RepositoryLock {
  readonly repository: string;
  release(): Promise<void>;
}

const LOCK_DIR = 'lock';
/** The code of the error a worker gets when the command that started it does not hold the repository. */
export const NOT_HELD = 'repository-not-held';
const HOST = hostname();

/** Field 22 of /proc/PID/stat (after the command's closing parenthesis: the name may hold spaces). */
function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const field = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return field === undefined ? undefined : Number(field);
  } catch {
    return undefined;
  }
}

/** Whether a holder on this machine still runs: its pid answers, and is the same process (its start time). */
function running(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const ticks = holder.ticks === undefined ? undefined : startTicks(holder.pid);
  return ticks === undefined || ticks === holder.ticks;
}

/**
 * Takes `repository` for this process, so that one crawl at a time writes into it (SPEC §15).
 * Each process that holds it has a file of its own in `REPOSITORY/.tarantula/lock/` (its pid, host,
 * start); to take the repository, a process writes its file first (whole, by a rename), then reads
 * the folder: another live holder means the repository is in use, and it withdraws. Two commands
 * starting together can thus both withdraw, never both go on. A file of a process of this machine
 * that no longer runs (killed with SIGKILL, a power cut) is stale and removed, so a crashed crawl
 * never blocks the next run; a holder on another machine (a repository on NFS) cannot be checked
 * and counts as running, and the message says which file to remove if it is not.
 *
 * `under`: the pid of the command this process is a worker of (`--workers N`): the worker runs under
 * that command's lock, which must be held; its own file keeps the repository taken should the
 * command die before its workers.
 *
 * Holds taken again in this process (a watch holds its repository, then each of its crawls does)
 * share one file, which goes with the last release.
 *
 * @throws {RepositoryInUse} when another crawl holds the repository; an fs error when the repository cannot be written
 * @example
 * const lock = await lockRepository('out');
 * try { ... } finally { await lock.release(); }
 */
export async function lockRepository(repository: string, opts: { readonly under?: number } = {}): Promise<RepositoryLock> {
  const root = resolve(repository);
  // Held already by this process (a watch, then each of its crawls): the same file, counted.
  const held = holding.get(root);
  if (held !== undefined) {
    held.count++;
    return { repository: root, release: () => letGo(root) };
  }
  const lock = await takeRepository(repository, opts);
  holding.set(root, { count: 1, release: lock.release });
  return { repository: root, release: () => letGo(root) };
}

/** The repositories this process holds, and how many holds of each are open. */
const holding = new Map<string, { count: number; readonly release: () => Promise<void> }>();

async function letGo(root: string): Promise<void> {
  const held = holding.get(root);
  if (held === undefined || --held.count > 0) return;
  holding.delete(root);
  await held.release();
}

async function takeRepository(repository: string, opts: { readonly under?: number }): Promise<RepositoryLock> {
  const dir = join(resolve(repository), STATE_DIR, LOCK_DIR);
  await makeDirectory(dir);
  const ticks = startTicks(process.pid);
  const me: LockHolder = {
    pid: process.pid, host: HOST, started: new Date().toISOString(),
    ...(ticks !== undefined ? { ticks } : {}), ...(opts.under !== undefined ? { under: opts.under } : {}),
  };
  const name = `${encodeURIComponent(HOST)}.${process.pid}.json`;
  const mine = join(dir, name);
  // Written whole before anyone can read it; a file of the same name is a dead process's (its pid is ours now).
  await writeFile(`${mine}.tmp`, JSON.stringify(me) + '\n');
  await rename(`${mine}.tmp`, mine);
  const lock = { repository: resolve(repository), release: () => rm(mine, { force: true }) };
  if (opts.under !== undefined) {
    // A worker runs under its command's lock; anyone else found here is a contender, which withdraws.
    const command = await readHolder(join(dir, `${encodeURIComponent(HOST)}.${opts.under}.json`));
    if (command !== undefined && running(command)) return lock;
    await lock.release();
    throw Object.assign(new Error(`the command that started this worker (pid ${opts.under}) does not hold the repository ${repository}`), { code: NOT_HELD });
  }
  for (const entry of await readdir(dir)) {
    if (entry === name || !entry.endsWith('.json')) continue;
    const file = join(dir, entry);
    const holder = await readHolder(file);
    if (holder === undefined) continue; // removed meanwhile: a holder that ended, or withdrew
    if (holder.host === HOST && !running(holder)) {
      await rm(file, { force: true });
      continue;
    }
    await lock.release();
    throw new RepositoryInUse(repository, holder, file);
  }
  return lock;
}

/**
 * The crawl holding `repository` now, if any (read only: a stale file is left for the next crawl).
 *
 * @example
 * await runningHolder('out') //=> { pid: 4242, host: 'host1', started: '2026-12-02T06:00:00.000Z' } while a crawl runs
 */
export async function runningHolder(repository: string): Promise<LockHolder | undefined> {
  const dir = join(resolve(repository), STATE_DIR, LOCK_DIR);
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    if (!entry.endsWith('.json')) continue;
    const holder = await readHolder(join(dir, entry));
    if (holder !== undefined && (holder.host !== HOST || running(holder))) return holder;
  }
  return undefined;
}

/** A holder's file; undefined when it is gone (or is no holder's file). */
const readHolder = (file: string): Promise<LockHolder | undefined> =>
  readFile(file, 'utf8').then(
    (text) => {
      const holder = JSON.parse(text) as Partial<LockHolder> | null;
      return typeof holder?.pid === 'number' && typeof holder.host === 'string' ? (holder as LockHolder) : undefined;
    },
    () => undefined,
  );

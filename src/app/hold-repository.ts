import type { CrawlLogger } from '../log/create-logger.js';
import { lockRepository, NOT_HELD, RepositoryInUse, type RepositoryLock } from '../state/repository-lock.js';
import { EXIT, exitWith } from './exit-status.js';

/**
 * Runs `work` with `repository` held by this process ({@link lockRepository}), and lets it go after,
 * whatever the way out. A repository in use by another crawl ends the command at once with exit 1
 * and one line naming the repository and that crawl (its pid, host and start); so does one that
 * cannot be written. `under`: the pid of the command this process is a worker of.
 *
 * @example
 * const exitCode = await holdRepository(config.repository, log, () => crawl());
 */
export async function holdRepository<T>(repository: string, log: CrawlLogger, work: (lock: RepositoryLock) => Promise<T>, opts: { readonly under?: number } = {}): Promise<T> {
  let lock: RepositoryLock;
  try {
    lock = await lockRepository(repository, opts);
  } catch (err) {
    const ours = err instanceof RepositoryInUse || (err as NodeJS.ErrnoException).code === NOT_HELD;
    const message = ours ? (err as Error).message : `the repository ${repository} is not writable: ${(err as Error).message}`;
    log.error(message);
    throw exitWith(EXIT.cannotRun, message);
  }
  try {
    return await work(lock);
  } finally {
    await lock.release().catch((err: unknown) => log.warn({ err }, `cannot let the repository ${repository} go; the next crawl finds this process gone and takes it`));
  }
}

import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SeenSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import type { CrawlerConfig } from '../model/config.js';
import { openCrawlState, type CrawlState } from '../state/crawl-state.js';
import { makeDirectory } from '../store/make-directory.js';
import { EXIT, exitWith } from './exit-status.js';

export interface OpenedRepository {
  readonly state: CrawlState;
  /** The WARC archive and the addresses of its hosts, when `warc-file` is set. */
  readonly archiving: Awaited<ReturnType<typeof import('../archive/warc-archive.js').archiveOf>>;
}

/**
 * Makes sure the repository can be written (a probe file), then opens the crawl state in `home`
 * (the repository, or a worker's own folder in it) and the WARC. Either failure ends the command
 * with exit 1 and one line naming the problem.
 *
 * @example
 * const { state } = await openRepository(config, log, { home: 'out', seen, started: undefined });
 */
export async function openRepository(
  config: CrawlerConfig,
  log: CrawlLogger,
  where: { readonly home: string; readonly repository: string; readonly seen: SeenSet; readonly started: SeenSet | undefined; readonly previous?: string },
): Promise<OpenedRepository> {
  let state;
  try {
    await makeDirectory(where.home);
    const probe = join(where.repository, `.tarantula-probe-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
    state = await openCrawlState(where.home, where.seen, where.started, where.previous);
  } catch (err) {
    const message = `the repository ${config.repository} is not writable: ${(err as Error).message}`;
    log.error(message);
    throw exitWith(EXIT.cannotRun, message);
  }
  try {
    // The archive's code (warcio among it) is loaded only by a crawl that writes one.
    return { state, archiving: config.warcFile === undefined ? undefined : await (await import('../archive/warc-archive.js')).archiveOf(config) };
  } catch (err) {
    const message = `cannot open the WARC ${config.warcFile}: ${(err as Error).message}`;
    log.error(message);
    throw exitWith(EXIT.cannotRun, message);
  }
}

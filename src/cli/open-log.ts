import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { EXIT, exitWith } from '../app/exit-status.js';
import { createLogger, type CrawlLogger } from '../log/create-logger.js';
import { makeDirectory } from '../store/make-directory.js';

/**
 * The command's logger, with its `log-file` (when not the screen) opened once first, its folder made:
 * a file that cannot be written ends the command with one line naming it. Left to pino, it was an
 * unhandled error event and a stack trace, and under /proc a folder waited for at 100 % CPU while the
 * crawl ran without its log.
 *
 * @example
 * const log = await openLog(config); // throws exitWith(1, 'cannot write the log file …') if it cannot
 */
export async function openLog(config: { readonly logFile: string; readonly logLevel: 0 | 1 | 2 }): Promise<CrawlLogger> {
  if (config.logFile !== 'screen' && config.logFile !== '') {
    try {
      await makeDirectory(dirname(resolve(config.logFile)));
      await (await open(config.logFile, 'a')).close();
    } catch (err) {
      throw exitWith(EXIT.cannotRun, `cannot write the log file ${config.logFile}: ${(err as Error).message}`);
    }
  }
  return createLogger(config);
}

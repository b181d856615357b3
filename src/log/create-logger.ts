import { pino, type Logger } from 'pino';

export type CrawlLogger = Logger<'page'>;

/**
 * The crawl's logger: pino, to stderr (`screen`) or to a file, never to stdout (stdout carries data).
 * `log-level` 0 keeps the essentials (start, end summary, warnings, errors); 1 adds a `page` line per
 * fetched document; 2 adds a debug line for every decision, with the reason each URL was dropped.
 *
 * @example
 * const log = createLogger({ logFile: 'screen', logLevel: 1 });
 * log.page({ url, status: 200 }, 'fetched');
 */
export function createLogger(opts: { readonly logFile: string; readonly logLevel: 0 | 1 | 2 }): CrawlLogger {
  const level = opts.logLevel === 0 ? 'info' : opts.logLevel === 1 ? 'page' : 'debug';
  const dest =
    opts.logFile === 'screen' || opts.logFile === ''
      ? pino.destination({ fd: 2, sync: true })
      : pino.destination({ dest: opts.logFile, mkdir: true, sync: false });
  return pino<'page'>(
    { level, customLevels: { page: 25 }, base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    dest,
  );
}

/** Flushes an asynchronous log destination before the process exits. */
export function flushLogger(log: CrawlLogger): Promise<void> {
  return new Promise((resolve) => log.flush(() => resolve()));
}

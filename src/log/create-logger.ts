import { pino, type Logger } from 'pino';
import { passwordsHidden } from '../config/without-password.js';
import { Terminal } from './terminal.js';

/** The crawl's pino logger, with the `page` level of the human lines at a terminal. */
export type CrawlLogger = Logger<'page'>;

/**
 * The crawl's logger: pino, to stderr (`screen`) or to a file, never to stdout (stdout carries data).
 * `log-level` 0 keeps the essentials (start, end summary, warnings, errors); 1 adds a `page` line per
 * fetched document; 2 adds a debug line for every decision, with the reason each URL was dropped.
 * On `screen`, when stderr is a terminal, the lines are written for people ({@link Terminal});
 * piped, they are JSON lines, as in a file. The password of a URL in a field (a seed's, a proxy's, a
 * Redis frontier's) is written `***`.
 *
 * @example
 * const log = createLogger({ logFile: 'screen', logLevel: 1 });
 * log.page({ url, status: 200 }, 'fetched');
 */
export function createLogger(
  opts: { readonly logFile: string; readonly logLevel: 0 | 1 | 2 },
  stderr: NodeJS.WriteStream = process.stderr,
): CrawlLogger {
  const level = opts.logLevel === 0 ? 'info' : opts.logLevel === 1 ? 'page' : 'debug';
  const screen = opts.logFile === 'screen' || opts.logFile === '';
  const dest = !screen
    ? pino.destination({ dest: opts.logFile, mkdir: true, sync: false })
    : stderr.isTTY
      ? new Terminal(stderr)
      : pino.destination({ fd: 2, sync: true });
  return pino<'page'>(
    { level, customLevels: { page: 25 }, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { log: withoutPasswords } },
    dest,
  );
}

/** A log line's fields with the password of every URL among them (or in a list of them) as `***`; the same object when there is none. */
function withoutPasswords(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    // A password comes before an `@`: one test per string field, nothing more for the lines without.
    const hidden =
      typeof value === 'string' ? (value.includes('@') ? passwordsHidden(value) : value)
      : Array.isArray(value) && value.some((v) => typeof v === 'string' && v.includes('@')) ? value.map((v: unknown) => (typeof v === 'string' ? passwordsHidden(v) : v))
      : value;
    if (hidden !== value) (copy ??= { ...fields })[key] = hidden;
  }
  return copy ?? fields;
}

/** The terminal a logger writes human lines to, if it does. */
export function terminalOf(log: CrawlLogger): Terminal | undefined {
  const dest = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  return dest instanceof Terminal ? dest : undefined;
}

/** Flushes an asynchronous log destination before the process exits. */
export function flushLogger(log: CrawlLogger): Promise<void> {
  return new Promise((resolve) => log.flush(() => resolve()));
}

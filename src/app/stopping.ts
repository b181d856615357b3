import { ReplaySubject } from 'rxjs';
import type { CrawlLogger } from '../log/create-logger.js';
import type { CrawlStop } from '../engine/pipeline.js';
import { EXIT } from './exit-status.js';

/** How a crawl is being stopped, and the exit status that follows. */
export interface Stopping {
  /** What the pipeline is given: emits once the crawl must stop; `now` stops it from a sink. */
  readonly stop: CrawlStop;
  /**
   * Stops the crawl with an exit status, and marks the run interrupted: what is still pending stays
   * pending, and the same command resumes. `hard` cuts the requests in flight short (they come back
   * as `unfinished`: pending, not failed); a time limit lets them end.
   */
  halt(code: number, why: string, hard: boolean): void;
  /** SIGINT and SIGTERM stop the crawl in order from now on; returns the function that stops listening. */
  onSignals(): () => void;
  readonly exitCode: number;
  readonly interrupted: boolean;
}

/**
 * The one way every stop path (a signal, the time limit, a closed stdout, a lost shared frontier, a
 * sink's `stop.now`) reaches the crawl: the stop is replayed, so a signal that comes while the sinks
 * are being opened still stops it.
 *
 * @example
 * const s = stopping(log, () => ctx.abort.abort()); s.halt(EXIT.sigint, 'SIGINT', true); s.exitCode //=> 130
 */
export function stopping(log: CrawlLogger, abort: () => void): Stopping {
  const stopped = new ReplaySubject<string>(1);
  let exitCode: number = EXIT.ok;
  let interrupted = false;
  const halt = (code: number, why: string, hard: boolean): void => {
    if (exitCode === EXIT.ok) exitCode = code;
    interrupted = true;
    log.info({ reason: why }, 'stopping');
    stopped.next(why);
    if (hard) abort();
  };
  return {
    stop: Object.assign(stopped.asObservable(), { now: (reason: string) => halt(EXIT.ok, reason, true) }),
    halt,
    onSignals() {
      const onSigint = (): void => halt(EXIT.sigint, 'SIGINT', true);
      const onSigterm = (): void => halt(EXIT.sigterm, 'SIGTERM', true);
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigterm);
      return () => {
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigterm);
      };
    },
    get exitCode() {
      return exitCode;
    },
    get interrupted() {
      return interrupted;
    },
  };
}

import type { CrawlerConfig } from '../config/config.js';
import { EXIT, runCrawl } from '../engine/run-crawl.js';
import type { CrawlLogger } from '../log/create-logger.js';

/**
 * `tarantula crawl --watch`: crawls, then recrawls `period` hours (fractions allowed) after the start
 * of the last crawl, until
 * a signal stops it or a crawl fails. A signal during the wait exits at once; during a crawl, that
 * crawl stops as usual (state saved, so the next run resumes it).
 *
 * @example
 * await watch(config, log) //=> 130 after Ctrl-C
 */
export async function watch(config: CrawlerConfig, log: CrawlLogger): Promise<number> {
  const periodMs = config.periodHours * 3_600_000;
  for (;;) {
    const started = Date.now();
    const { exitCode } = await runCrawl(config, log, { stdout: process.stdout, handleSignals: true });
    if (exitCode !== EXIT.ok) return exitCode;
    const next = new Date(started + periodMs);
    log.info({ next: next.toISOString(), periodHours: config.periodHours }, 'waiting for the next recrawl');
    const signal = await new Promise<number | undefined>((resolve) => {
      const done = (code: number | undefined): void => {
        clearTimeout(timer);
        process.off('SIGINT', onInt).off('SIGTERM', onTerm);
        resolve(code);
      };
      const onInt = (): void => done(EXIT.sigint);
      const onTerm = (): void => done(EXIT.sigterm);
      const timer = setTimeout(() => done(undefined), Math.min(Math.max(0, next.getTime() - Date.now()), 2 ** 31 - 1));
      process.on('SIGINT', onInt).on('SIGTERM', onTerm);
    });
    if (signal !== undefined) return signal;
  }
}

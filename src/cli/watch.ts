import type { CrawlerConfig } from '../model/config.js';
import { EXIT } from '../app/exit-status.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { crawlAndReport, type CrawlAndReportOptions } from './crawl-and-report.js';
import { holdRepository } from '../app/hold-repository.js';

/** One crawl of a watch: its exit status and, with `recrawl-policy = adaptive`, when its first page is due (ms since the epoch). */
export type WatchedCrawl = () => Promise<{ readonly exitCode: number; readonly due?: number }>;

/**
 * The crawl of `tarantula crawl --watch` in this process, each followed by its report when `opts.report`.
 *
 * @example
 * await watch(config, log, crawlHere(config, log, { report: false }))
 */
export function crawlHere(config: CrawlerConfig, log: CrawlLogger, opts: CrawlAndReportOptions): WatchedCrawl {
  return async () => {
    let due: number | undefined;
    const exitCode = await crawlAndReport(config, log, { ...opts, crawled: (ctx) => (due = ctx.schedule.adaptive ? ctx.schedule.earliest : undefined) });
    return due === undefined ? { exitCode } : { exitCode, due };
  };
}

/**
 * `tarantula crawl --watch`: crawls (`crawlOnce`: in this process, or a shared crawl's round), then
 * recrawls `period` hours (fractions allowed) after the start of the last crawl — with
 * `recrawl-policy = adaptive`, when the first page is due instead — until
 * a signal stops it or a crawl fails. A signal during the wait exits at once; during a crawl, that
 * crawl stops as usual (state saved, so the next run resumes it).
 *
 * @example
 * await watch(config, log, crawlHere(config, log, { report: false })) //=> 130 after Ctrl-C
 */
export async function watch(config: CrawlerConfig, log: CrawlLogger, crawlOnce: WatchedCrawl): Promise<number> {
  const periodMs = config.periodHours * 3_600_000;
  let signalled: number | undefined;
  let wake: (() => void) | undefined;
  const onInt = (): void => {
    signalled ??= EXIT.sigint;
    wake?.();
  };
  const onTerm = (): void => {
    signalled ??= EXIT.sigterm;
    wake?.();
  };
  // Held for the whole watch, crawls included, so that no moment between two crawls (a crawl's own
  // start or end) is left to the default action, which would kill the process halfway through a write.
  process.on('SIGINT', onInt).on('SIGTERM', onTerm);
  try {
    // Held between the crawls too: no other crawl writes into the repository while this one watches it.
    return await holdRepository(config.repository, log, async () => {
      for (;;) {
        const started = Date.now();
        const { exitCode, due } = await crawlOnce();
        if (exitCode !== EXIT.ok) return exitCode;
        if (signalled !== undefined) return signalled;
        const next = new Date(due ?? started + periodMs);
        log.info({ next: next.toISOString(), ...(due === undefined ? { periodHours: config.periodHours } : { firstDue: true }) }, 'waiting for the next recrawl');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(Math.max(0, next.getTime() - Date.now()), 2 ** 31 - 1));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (signalled !== undefined) return signalled;
      }
    });
  } finally {
    process.off('SIGINT', onInt).off('SIGTERM', onTerm);
  }
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CrawlerConfig } from '../model/config.js';
import type { CrawlContext } from '../engine/crawl-context.js';
import type { CrawlSummary } from '../sinks/crawl-stats.js';
import { commandLine, runCrawl } from '../app/run-crawl.js';
import { holdRepository } from '../app/hold-repository.js';
import { terminalOf, type CrawlLogger } from '../log/create-logger.js';
import { serveOption } from './serve-option.js';
import { summaryBlock } from './summary-block.js';

export interface CrawlAndReportOptions {
  /** `--report`: write REPOSITORY/report.html once the crawl has ended. */
  readonly report: boolean;
  /** Print the closing block on stderr even when it is not a terminal (the demo always says where things are). */
  readonly summary?: boolean;
  /** Told the crawl's context once it has ended (`--watch` reads when the first page is due from it). */
  readonly crawled?: (ctx: CrawlContext) => void;
}

/**
 * `tarantula crawl` as the command line runs it: the crawl, then the report if asked for, then, at
 * a terminal, the closing block of {@link summaryBlock}. A report that cannot be written is logged
 * as an error and does not change the exit status: the crawl itself is saved.
 *
 * @example
 * process.exitCode = await crawlAndReport(config, log, { report: true });
 */
export async function crawlAndReport(config: CrawlerConfig, log: CrawlLogger, opts: CrawlAndReportOptions): Promise<number> {
  // Held for the report too; the crawl's own hold is the same one, counted.
  return holdRepository(config.repository, log, () => crawlThenReport(config, log, opts));
}

async function crawlThenReport(config: CrawlerConfig, log: CrawlLogger, opts: CrawlAndReportOptions): Promise<number> {
  const { exitCode, ctx } = await runCrawl(config, log, { ...commandLine(), ...(await serveOption(config)) });
  opts.crawled?.(ctx);
  let report: string | undefined;
  if (opts.report) {
    // Loaded only when asked for: the report's code, and the CSV reader it reads an index with, is no crawl's.
    const { writeReport } = await import('../report/write-report.js');
    report = await writeReport(config.repository).catch((err: unknown) => {
      log.error({ err }, `cannot write the report: ${(err as Error).message}`);
      return undefined;
    });
    if (report !== undefined) log.info({ report }, 'report written');
  }
  const terminal = terminalOf(log);
  if (terminal !== undefined || opts.summary === true) {
    // What stats.json says, as written at the crawl's end; if that failed, the error is logged already.
    const stats = await readFile(join(config.repository, 'stats.json'), 'utf8').then((text) => JSON.parse(text) as CrawlSummary, () => undefined);
    if (stats !== undefined) {
      const block = summaryBlock(stats, config.repository, report);
      if (terminal !== undefined) terminal.print(block);
      else process.stderr.write(block);
    }
  }
  return exitCode;
}

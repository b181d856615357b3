import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CrawlContext } from '../engine/crawl-context.js';
import type { IndexWriter } from '../output/index-writer.js';

export interface CrawlEnd {
  /** Nothing stopped it early: the journal is marked complete and a recrawl's new index replaces the old. */
  readonly completed: boolean;
  /** A worker of a shared crawl: its journal is never marked complete (a shared crawl is resumed, not recrawled). */
  readonly shared: boolean;
  /** Where stats.json goes: the repository, or the worker's folder. */
  readonly home: string;
  readonly indexPath: string;
  /** The index being written: `indexPath`, or beside it for a recrawl. */
  readonly writing: string;
}

/**
 * Closes a crawl in the order that keeps it resumable: the index writers, the journal (marked
 * complete only after a complete crawl), the new index of a recrawl put in place, then stats.json,
 * the closing log lines, and the context. A failure of one step is logged and the others still run.
 *
 * @example
 * await finishCrawl(ctx, writers, { completed: true, shared: false, home: 'out', indexPath: 'out/index.txt', writing: 'out/index.txt' });
 */
export async function finishCrawl(ctx: CrawlContext, writers: readonly IndexWriter[], end: CrawlEnd): Promise<void> {
  const { log, state } = ctx;
  for (const writer of writers) await writer.close().catch((err: unknown) => log.error({ err }, 'cannot write the index'));
  if (end.completed && !end.shared) await state.complete();
  await state.journal.close().catch((err: unknown) => log.error({ err }, 'cannot write the crawl journal'));
  if (end.completed && end.writing !== end.indexPath) await rename(end.writing, end.indexPath);
  const summary = { ...ctx.stats.summary(), pending: ctx.frontier.size, completed: end.completed, ...(state.recrawl ? { recrawl: ctx.stats.recrawlSummary() } : {}) };
  await writeFile(join(end.home, 'stats.json'), JSON.stringify(summary, null, 2) + '\n').catch((err: unknown) => log.error({ err }, 'cannot write stats.json'));
  const returned = ctx.stats.returned;
  if (returned > 0) log.info({ returned }, `${returned} request${returned === 1 ? '' : 's'} in flight when the crawl stopped ${returned === 1 ? 'is' : 'are'} pending again`);
  log.info(summary, end.completed ? 'crawl finished' : 'crawl interrupted; run the same command again to resume');
  await ctx.close();
}

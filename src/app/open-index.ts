import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { CrawlContext } from '../engine/crawl-context.js';
import type { IndexRecord } from '../model/index-record.js';
import { IndexWriter } from '../output/index-writer.js';

export interface OpenedIndex {
  readonly writers: IndexWriter[];
  readonly indexPath: string;
  /** The index being written: `indexPath`, or `index.txt.new` while a recrawl runs (it replaces the old at the end). */
  readonly writing: string;
  /** Adaptive recrawl: pages not due, whose records and copies are kept without a request. */
  readonly notDue: number;
}

/**
 * Opens the index writers of a crawl (REPOSITORY/index.txt, and `--index` in its format) and puts
 * back what this run did not fetch itself: the records an interrupted run wrote, and on an adaptive
 * recrawl the pages not due. Those pages count for duplicates, near-duplicates and the next recrawl as if
 * this run had fetched them. A worker of a shared crawl writes only its part.
 *
 * @example
 * const { writers } = await openIndex(ctx, { home: 'out', stdout, shared: false, onBrokenPipe: () => stop.now('stdout closed') });
 */
export async function openIndex(
  ctx: CrawlContext,
  opts: { readonly home: string; readonly stdout: Writable; readonly shared: boolean; readonly onBrokenPipe: () => void },
): Promise<OpenedIndex> {
  const { config, state } = ctx;
  const indexPath = join(opts.home, 'index.txt');
  const writing = state.recrawl ? `${indexPath}.new` : indexPath;
  const writers: IndexWriter[] = [];
  const remember = (rec: IndexRecord): void => {
    if (rec.duplicateOf === null) {
      // The first page of each content: a page after the resume with the same content is its copy.
      ctx.documents.contentSeen.add(rec.contentMd5, rec.url);
      if (rec.simhash != null && rec.nearDuplicateOf == null) ctx.documents.near.index.add(rec.simhash, rec.url);
    }
    ctx.schedule.carry(rec);
  };
  try {
    writers.push(await IndexWriter.open(writing, { format: 'seed' }));
    if (!opts.shared && config.indexFile !== undefined && config.indexFile !== '-') writers.push(await IndexWriter.open(config.indexFile, { format: config.indexFormat }));
    const files = [...writers];
    // The in-links the interrupted run had counted, from the links of its documents (as admission counts them: not a copy's).
    const countLinks = ctx.admission.priority.levels > 1;
    await state.replay((rec) => files.forEach((w) => w.write(rec)), (rec) => {
      remember(rec);
      if (countLinks && rec.duplicateOf === null && !(rec.nearDuplicateOf != null && config.skipNearDuplicates)) for (const link of rec.links) ctx.admission.inLinks.add(link.url);
    });
    if (!opts.shared && config.indexFile === '-') writers.push(await IndexWriter.open(opts.stdout, { format: config.indexFormat, onBrokenPipe: opts.onBrokenPipe }));
    const notDue = !ctx.schedule.adaptive ? 0 : state.carryOver((rec) => !ctx.schedule.isDue(rec), ({ record, indexed }) => {
      if (indexed) writers.forEach((w) => w.write(record));
      remember(record);
    });
    return { writers, indexPath, writing, notDue };
  } catch (err) {
    await Promise.all(writers.map((w) => w.close().catch(() => undefined)));
    throw err;
  }
}

import { join, resolve } from 'node:path';
import type { CrawlSummary } from '../sinks/crawl-stats.js';
import { formatBytes } from '../report/format-bytes.js';
import { formatCount } from '../log/format-count.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * The end of a crawl as a person reads it (wget's closing lines): what was fetched, how much, how
 * fast, where the mirror, index and stats are, and the report, written or the command that writes it.
 *
 * @example
 * summaryBlock(stats, 'demo-output', undefined)
 * //=> 'Finished: 43 pages (41 indexed), 1 failure, 26.0 KiB in 0.287 s (149.8 pages/s)\n  mirror:  /…/demo-output/\n…'
 */
export function summaryBlock(
  s: CrawlSummary & { readonly pending?: number; readonly completed?: boolean },
  repository: string,
  report: string | undefined,
): string {
  const repo = resolve(repository);
  const head = s.completed === false ? 'Interrupted' : 'Finished';
  const left = s.completed === false ? `\n  ${plural(s.pending ?? 0, 'URL')} pending: run the same command again to resume` : '';
  return (
    `\n${head}: ${plural(s.documents, 'page')} (${formatCount(s.indexed)} indexed), ${plural(s.failures, 'failure')}, ` +
    `${formatBytes(s.bytes)} in ${s.seconds} s (${s.pagesPerSecond} pages/s)${left}\n` +
    `  mirror:  ${repo}/\n  index:   ${join(repo, 'index.txt')}\n  stats:   ${join(repo, 'stats.json')}\n` +
    `  report:  ${report === undefined ? `tarantula report ${repository}` : resolve(report)}\n`
  );
}

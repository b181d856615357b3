import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outcome } from '../model/outcome.js';
import type { IndexWriter } from '../output/index-writer.js';

/**
 * Writes the index record of every indexed document to each writer (REPOSITORY/index.txt, and the
 * `--index` destination in its `--format`). Redirects, failures, skips and noindex pages get none.
 *
 * @example
 * crawl(spec).pipe(writeIndex([indexTxt, stdoutJsonl])).subscribe();
 */
export function writeIndex(writers: readonly IndexWriter[]): MonoTypeOperatorFunction<Outcome> {
  return tap((out) => {
    if (out.kind !== 'document' || !out.indexed) return;
    for (const writer of writers) writer.write(out.record);
  });
}

import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outcome } from '../model/outcome.js';
import type { JournalWriter } from '../state/journal-writer.js';

/**
 * Writes how each request ended to the crawl journal: documents with their record (what the index
 * is rebuilt from on resume, and what a recrawl revalidates), redirects with their target, failures
 * skips, and sitemaps read. Retries are not ends: the URL is still pending.
 *
 * @example
 * crawl(spec).pipe(journalOutcomes(state.journal), writeIndex(writers)).subscribe();
 */
export function journalOutcomes(journal: JournalWriter): MonoTypeOperatorFunction<Outcome> {
  return tap((out) => {
    const r = out.req;
    switch (out.kind) {
      case 'document':
        journal.append(['d', r.url, out.record, out.contentType, out.indexed]);
        break;
      case 'redirect':
        journal.append(['r', r.url, out.location, r.depth, r.originalUrl, r.redirects]);
        break;
      case 'failed':
      case 'skipped':
      case 'sitemap':
        journal.append(['x', r.url, out.kind]);
        break;
    }
  });
}

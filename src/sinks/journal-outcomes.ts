import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outcome } from '../model/outcome.js';
import { endOf } from '../model/request-end.js';
import type { JournalWriter } from '../state/journal-writer.js';
import { recordSchedule } from '../model/page-visit.js';

/**
 * Writes how each request ended to the crawl journal: documents with their record (what the index
 * is rebuilt from on resume, and what a recrawl revalidates), redirects with their target, failures
 * skips, sitemaps read, and a shared recrawl's 304 for a page stored elsewhere with its new schedule. What {@link endOf} says is not an end (a retry) is not written: the URL
 * is still pending.
 *
 * @example
 * crawl(spec).pipe(journalOutcomes(state.journal), writeIndex(writers)).subscribe();
 */
export function journalOutcomes(journal: JournalWriter): MonoTypeOperatorFunction<Outcome> {
  return tap((out) => {
    if (endOf(out).kind === 'again') return;
    const r = out.req;
    if (out.kind === 'document') journal.append(['d', r.url, out.record, out.contentType, out.indexed]);
    else if (out.kind === 'redirect') journal.append(['r', r.url, out.location, r.depth, r.originalUrl, r.redirects]);
    else if (out.kind === 'revalidated') journal.append(['x', r.url, out.kind, recordSchedule(out.visit)]);
    else journal.append(['x', r.url, out.kind]);
  });
}

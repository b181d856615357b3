import type { IndexRecord } from '../model/index-record.js';
import type { Outcome } from '../model/outcome.js';

/**
 * The lines of `REPOSITORY/.tarantula/journal.jsonl`, one JSON array each, in the order things
 * happened. A document's line always comes before the lines of the links it led to.
 */
export type JournalEvent =
  /** The crawl (or a resumed run of it) started. */
  | readonly ['start', string]
  /**
   * A URL was admitted into the frontier; with priority levels, the level it was given (after a
   * sitemap's details or null). The original URL is null when it is the URL itself.
   */
  | readonly ['a', url: string, depth: number, originalUrl: string | null, redirects: number, sitemap?: { readonly sitemap?: number; readonly lastmod?: string } | null, level?: number]
  /**
   * A document was fetched: its record and Content-Type, kept for recrawl, and whether it is in the
   * index (false: noindex). Earlier journals wrote `null` for a noindex record and nothing after the
   * Content-Type: both are still read. `carried`: not requested, kept from the last crawl because it was not due (adaptive recrawl).
   */
  | readonly ['d', url: string, record: IndexRecord | null, contentType: string | null, indexed?: boolean, carried?: boolean]
  /**
   * A request ended without a document: a failure, a skip, or a sitemap read (its URLs are the admission
   * lines after it); the outcome's kind. `revalidated`: a shared recrawl's 304 for a page whose record
   * and stored copy are in another repository of the crawl (`tarantula merge` takes that record), with
   * its new schedule.
   */
  | readonly ['x', url: string, kind: Outcome['kind'], schedule?: Pick<IndexRecord, 'nextFetch' | 'fetchIntervalHours'>]
  /** A redirect, with what its target inherits, so a resume can admit the target if that was lost. */
  | readonly ['r', url: string, location: string, depth: number, originalUrl: string, redirects: number]
  /** A pending URL found again moved up to a higher priority level: a resume queues it there. */
  | readonly ['l', url: string, level: number]
  /** A seed read from an input file widened the scope: a resume or a recrawl widens it again. */
  | readonly ['s', seed: string]
  /** The crawl completed: the next run into this repository is a recrawl. */
  | readonly ['end', string];

/** Reads one journal line; undefined for a torn or foreign line (a kill mid-write). */
export function parseEvent(line: string): JournalEvent | undefined {
  if (line === '' || line.charCodeAt(0) !== 91 /* [ */) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return Array.isArray(value) && typeof value[0] === 'string' ? (value as unknown as JournalEvent) : undefined;
  } catch {
    return undefined;
  }
}

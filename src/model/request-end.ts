import type { CrawlRequest } from './crawl-request.js';
import type { Outcome } from './outcome.js';
import type { IndexRecord } from './index-record.js';
import type { PageVisit } from './page-visit.js';

/**
 * How a request left the unit, the one answer the crawl loop, the frontier (in-process or shared)
 * and the journal read: ended with a document (it counts towards `max-page-number`), ended without
 * one, or not ended at all and put back at the head of its host's queue, still pending.
 */
export type RequestEnd<R = CrawlRequest> =
  /**
   * What the next recrawl of the page needs, for a frontier that keeps the recrawl schedule: the
   * document's `record`, or the `visit` of a revalidation whose record is elsewhere (a shared crawl).
   */
  | { readonly kind: 'document'; readonly record?: IndexRecord; readonly visit?: PageVisit }
  | { readonly kind: 'done' }
  /** `next` takes its place at the head of its host's queue: a retry, or the same request again. */
  | { readonly kind: 'again'; readonly next: R };

/** The end of a request that brought a document. */
export const ENDED_WITH_DOCUMENT: RequestEnd<never> = { kind: 'document' };
/** The end of a request that brought no document: a redirect, a failure, a skip, a sitemap. */
export const ENDED: RequestEnd<never> = { kind: 'done' };

/**
 * How the request of an outcome ended. A retry, a request put back after its host's robots.txt was
 * fetched and one a stop cut short are not ends: they stay pending. Exhaustive over the outcome kinds,
 * so a new kind does not compile until it is given its end here.
 *
 * @example
 * endOf({ kind: 'retry', req, retry, code: 'ECONNRESET', message }) //=> { kind: 'again', next: retry }
 */
export function endOf(out: Outcome): RequestEnd {
  switch (out.kind) {
    case 'document':
      return { kind: 'document', record: out.record };
    case 'revalidated':
      return { kind: 'document', visit: out.visit };
    case 'redirect':
    case 'skipped':
    case 'sitemap':
    case 'failed':
      return ENDED;
    case 'retry':
      return { kind: 'again', next: out.retry };
    case 'robots-fetched':
    case 'unfinished':
      return { kind: 'again', next: { ...out.req, requeued: true } };
    default:
      return unknownOutcome(out);
  }
}

function unknownOutcome(out: never): never {
  throw new Error(`no end for the outcome ${(out as { kind: string }).kind}`);
}

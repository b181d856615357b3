import type { Candidate, CrawlRequest } from './crawl-request.js';
import type { FetchResponse } from './fetch-response.js';
import type { IndexRecord } from './index-record.js';
import type { FilterReason } from './filter-reason.js';
import type { PageVisit } from './page-visit.js';

/** A response on its way through the unit, before it becomes an {@link Outcome}. */
export interface Fetched {
  readonly kind: 'fetched';
  readonly req: CrawlRequest;
  readonly response: FetchResponse;
  /** On recrawl, the record of a document the server said is unchanged (304): its body is the stored copy. */
  readonly kept?: IndexRecord;
  /** The DOM the page's scripts built in the browser (`render`), UTF-8: what is parsed; the mirror keeps `response.body` too. */
  readonly rendered?: Buffer;
}

/** What a parser learned of a fetched document. */
export interface DocumentInfo {
  readonly type: string;
  readonly isHtml: boolean;
  readonly encoding: string | null;
  readonly title: string | null;
  /** Links for the index record: normalized, in scope, passing the lists, once each, in document order. */
  readonly links: readonly { readonly url: string; readonly text: string }[];
  /** Links to admit into the frontier (empty when the page said nofollow or was a duplicate). */
  readonly follow: readonly Candidate[];
  readonly noindex: boolean;
  readonly nofollow: boolean;
  readonly contentMd5: string;
  readonly duplicateOf: string | null;
  /** The SimHash of an HTML document's visible text; null for other types. */
  readonly simhash: string | null;
  /** An earlier page within near-duplicate-bits of it (null for an exact duplicate, which is `duplicateOf`). */
  readonly nearDuplicateOf: string | null;
  /** Links left out by `max-links-per-page` (0 almost always): the log names such a page. */
  readonly linksCut: number;
}

/** A fetched document and what a parser learned of it, on its way to the mirror. */
export interface Parsed {
  readonly kind: 'parsed';
  readonly req: CrawlRequest;
  readonly response: FetchResponse;
  readonly doc: DocumentInfo;
  readonly kept?: IndexRecord;
}

/** How one request ended. Every request yields exactly one; per-URL failures are values, never errors. */
export type Outcome =
  | {
      readonly kind: 'document';
      readonly req: CrawlRequest;
      readonly status: number;
      /** Its index record, also kept (for recrawl) when the page said noindex. */
      readonly record: IndexRecord;
      /** False when the page said noindex: counted and stored, but not in the index. */
      readonly indexed: boolean;
      readonly contentType: string | null;
      /** True when a recrawl found it unchanged (304) and kept the stored copy and record. */
      readonly unchanged: boolean;
      readonly doc: DocumentInfo;
      readonly bytes: number;
      /** The body was cut at max-body-size or max-decoded-size. */
      readonly truncated: boolean;
      readonly durationMs: number;
      readonly links: readonly Candidate[];
    }
  /**
   * A shared crawl's recrawl: a 304 for a page whose stored copy and record are in another repository
   * of the crawl (another machine fetched it last). Unchanged; `visit` is its visit now, with its next
   * schedule. It ends the request as a document does; its record is the earlier one, where it is.
   */
  | { readonly kind: 'revalidated'; readonly req: CrawlRequest; readonly status: number; readonly visit: PageVisit }
  | { readonly kind: 'redirect'; readonly req: CrawlRequest; readonly status: number; readonly location: string; readonly links: readonly Candidate[] }
  | { readonly kind: 'retry'; readonly req: CrawlRequest; readonly retry: CrawlRequest; readonly code: string; readonly message: string }
  /**
   * Not done yet: its host's robots.txt was just fetched, and the request waits its turn (the politeness delay) again.
   * `links` are the host's sitemaps, found with its robots.txt.
   */
  | { readonly kind: 'robots-fetched'; readonly req: CrawlRequest; readonly links?: readonly Candidate[] }
  /**
   * Not an end: the crawl was stopped while the request was in flight (its fetch aborted). It goes
   * back to the frontier and stays pending in the journal, so the next run fetches it (SPEC §1).
   */
  | { readonly kind: 'unfinished'; readonly req: CrawlRequest }
  | { readonly kind: 'skipped'; readonly req: CrawlRequest; readonly reason: FilterReason; readonly message?: string; readonly links?: readonly Candidate[] }
  /** A sitemap was read (or is missing: a 4xx): the URLs and sitemaps it lists are `links`. */
  | {
      readonly kind: 'sitemap';
      readonly req: CrawlRequest;
      readonly status: number;
      readonly urls: number;
      readonly sitemaps: number;
      /** Why it was not read to its end (a limit, a break), or why its nested sitemaps were not taken. */
      readonly cut?: string;
      readonly links: readonly Candidate[];
    }
  | { readonly kind: 'failed'; readonly req: CrawlRequest; readonly code: string; readonly message: string; readonly status?: number };

/** Work still in progress in the unit: a request, its response, then what a parser learned of it. */
export type InProgress = CrawlRequest | Fetched | Parsed;

/** Any value flowing through the unit: work in progress, or a finished outcome passed along. */
export type UnitValue = InProgress | Outcome;

/** Whether a unit value is finished: a request has no `kind`, a response or a parse is still work. */
export const isOutcome = (value: UnitValue): value is Outcome => 'kind' in value && value.kind !== 'fetched' && value.kind !== 'parsed';

/** The links an outcome feeds back into the frontier. */
export const linksOf = (out: Outcome): readonly Candidate[] =>
  out.kind === 'document' || out.kind === 'redirect' || out.kind === 'sitemap' ? out.links : out.kind === 'robots-fetched' || out.kind === 'skipped' ? (out.links ?? []) : [];

import type { DocumentDescription } from '../parse/describe-document.js';
import type { FilterReason } from '../model/filter-reason.js';
import type { LinkPolicySource } from '../url/link-policy.js';

/** What a document worker needs to know of the crawl, once. */
export interface WorkerSetup {
  readonly repository: string;
  /** Top-level names of the repository no host folder may take (the crawl's own files). */
  readonly reserved?: readonly string[];
  /** Scope and lists, as the main thread has them: each worker makes the same policy of it. */
  readonly policy: LinkPolicySource;
  /** The robots.txt product token of the user agent, for `<meta name=...>` and X-Robots-Tag rules. */
  readonly agent: string;
  readonly obeyRelNofollow: boolean;
  readonly maxLinksPerPage: number;
}

/** One document to describe, and to store unless a recrawl kept its stored copy. */
export interface DocumentJob {
  readonly id: number;
  readonly url: string;
  readonly contentType: string | undefined;
  readonly xRobotsTag: string | undefined;
  readonly body: Uint8Array;
  readonly store: boolean;
  /** The rendered DOM (UTF-8), parsed instead of `body` and stored beside it as NAME.rendered.html. */
  readonly rendered?: Uint8Array;
  /** Where the last crawl stored this URL (a recrawl): its copy is replaced there. */
  readonly previous?: string;
  /** Seeds that widened the crawl's scope since this thread's last job (read from input files while crawling). */
  readonly scopeSeeds?: readonly string[];
}

export type DocumentResult =
  | {
    readonly id: number;
    readonly description: DocumentDescription;
    readonly localPath: string | undefined;
    /** Where the rendered DOM was stored, beside `localPath`, when there was one. */
    readonly renderedPath?: string;
    readonly dropped: readonly (readonly [FilterReason, string])[];
  }
  | { readonly id: number; readonly error: string; readonly code: string | undefined };

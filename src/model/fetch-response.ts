/** What one fetch brought back, as the stages and the archive see it. */

/** Conditional-request validators of a stored copy (recrawl). */
export interface Validators {
  readonly lastModified?: string | null;
  readonly etag?: string | null;
}

/** One HTTP response as the crawl keeps it: status, headers, the decoded body (cut at the limits), timings, and the wire exchange for an archive. */
export interface FetchResponse {
  readonly status: number;
  /** Header names lowercase; repeated headers joined with ", " (set-cookie is not kept). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly truncated: boolean;
  /**
   * The server cut the body, not a cap: the connection went (`disconnect`) or stalled past the body
   * timeout (`time`) mid-body. Only on the response a failed fetch carries for an archive.
   */
  readonly cutBy?: 'disconnect' | 'time';
  readonly startedAt: number;
  readonly durationMs: number;
  /** With `capture`: the exchange as it went over the wire. */
  readonly wire?: WireExchange;
}

/** An HTTP exchange as sent and received, for a WARC's request and response records. */
export interface WireExchange {
  /** The request target (path and query) and the headers we sent, in order (undici adds Host and Connection). */
  readonly target: string;
  readonly requestHeaders: readonly (readonly [string, string])[];
  readonly statusText: string;
  /** The response headers in the order and case received, repeats kept. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body as received, Content-Encoding not undone (transfer chunking is undone by undici). */
  readonly body: Buffer;
}

/** One anchor of a page, as listed in the index: normalized target and anchor text. */
export interface IndexLink {
  readonly url: string;
  readonly text: string;
}

/**
 * The index record of one document fetched with a 2xx (or kept by a 304 on recrawl), SPEC §6.
 * `null` stands where the seed format writes `-`.
 */
export interface IndexRecord {
  readonly md5: string;
  readonly url: string;
  readonly originalUrl: string;
  readonly title: string | null;
  readonly encoding: string | null;
  readonly type: string;
  readonly lastModified: string | null;
  readonly serverDate: string | null;
  readonly status: number;
  readonly etag: string | null;
  readonly localPath: string;
  readonly contentLength: number;
  readonly contentMd5: string;
  readonly depth: number;
  readonly fetchedAt: string;
  readonly durationMs: number;
  readonly duplicateOf: string | null;
  /** The SimHash of an HTML document's visible text, 16 hex digits (older records have none). */
  readonly simhash?: string | null;
  /** An earlier page of the crawl whose SimHash is within near-duplicate-bits of this one's (not an exact duplicate). */
  readonly nearDuplicateOf?: string | null;
  /** When a recrawl requests this page again (ISO 8601). */
  readonly nextFetch?: string;
  /** The page's recrawl interval in hours, as the recrawl policy last set it. */
  readonly fetchIntervalHours?: number;
  /** True when the body was cut at max-body-size. */
  readonly truncated?: boolean;
  /** The `<lastmod>` of the sitemap that listed the URL (SPEC §9). */
  readonly sitemapLastmod?: string;
  /** Where the DOM a browser rendered from the page is stored, relative to the repository (`render`). */
  readonly renderedPath?: string;
  readonly links: readonly IndexLink[];
}

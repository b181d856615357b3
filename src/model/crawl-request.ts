/**
 * A URL admitted to the crawl, as it waits in the frontier and travels through the fetch unit.
 */
export interface CrawlRequest {
  /** The normalized absolute URL; fetched as it is. */
  readonly url: string;
  /** Politeness key: the URL's host with its port when not the default. */
  readonly host: string;
  /** Links from a seed; seeds are 0, redirect targets keep the depth of what redirected. */
  readonly depth: number;
  /** The link as first written in a referring page (or the seed as written), before a redirect chain. */
  readonly originalUrl: string;
  /** Redirect hops that led here. */
  readonly redirects: number;
  /** Failed attempts so far (network error, 5xx, 429). */
  readonly attempt: number;
  /** Depth-first found this URL again while it was still pending: it goes on top of the stack, the older entry is skipped. */
  readonly again?: boolean;
  /** Put back at the head of its queue after its host's robots.txt was fetched, so the politeness delay applies. */
  readonly requeued?: boolean;
  /** Its priority, 1 (lowest) to priority-levels, as the prioritizer gave it (SPEC §10). */
  readonly level?: number;
  /** A sitemap to read, not a page: how many sitemap indexes led to it (0: named by robots.txt, or the guessed /sitemap.xml). */
  readonly sitemap?: number;
  /** The `<lastmod>` a sitemap gave this URL. */
  readonly sitemapLastmod?: string;
}

/** A link waiting to be admitted: as written in `base`, or already normalized by the parser. */
export interface Candidate {
  /** The attribute value as written (trimmed), or the seed as written. */
  readonly href: string;
  /** The normalized URL when the caller already computed it; admission normalizes `href` otherwise. */
  readonly url?: string;
  /** The document URL (or `<base href>`) that `href` is relative to. */
  readonly base?: string;
  readonly depth: number;
  /** Set when the parser already checked `url` against scope and the accept/reject lists. */
  readonly vetted?: boolean;
  /** Set for seeds: they bypass scope and the accept/reject lists (SPEC §4). */
  readonly seed?: boolean;
  /** Set for redirect targets: the chain's original link and hop count. */
  readonly originalUrl?: string;
  readonly redirects?: number;
  /** Set for sitemaps to read (see {@link CrawlRequest.sitemap}). */
  readonly sitemap?: number;
  /** Set for URLs a sitemap listed with a `<lastmod>`. */
  readonly sitemapLastmod?: string;
}

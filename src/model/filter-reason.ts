/**
 * Every reason a URL can be dropped before or instead of being fetched, as a named value so that
 * stats count them and debug logs (log-level 2) name them (STYLE habit 8, colly's `Err*` sentinels).
 *
 * - `invalid-url`: the WHATWG parser rejects it, it is blank, or its host cannot be a DNS name.
 * - `unsupported-scheme`: it parses, but is not `http:`/`https:` (`mailto:`, `javascript:`, `data:`, ...).
 * - `out-of-scope`: outside the configured scope (SPEC §4).
 * - `rejected` / `not-accepted`: matched by the reject list / not admitted by a non-empty accept list.
 * - `private-address`: the host is, or resolves to, an address the SSRF guard refuses (loopback,
 *   private, link-local, CGNAT, multicast, reserved), at admission for a literal address, at connect time for a name.
 * - `too-long`: the normalized URL is longer than `max-url-length`.
 * - `path-repetition`: one path segment repeats more than `max-path-repetition` times.
 * - `too-deep`: more links from a seed than `max-depth`.
 * - `duplicate`: already seen.
 * - `host-limit`: the host already gave `max-pages-per-host` documents.
 * - `robots` / `robots-unavailable`: disallowed by robots.txt / robots.txt could not be fetched.
 * - `crawl-delay`: the host's robots.txt Crawl-delay is above `max-crawl-delay`, so the host is skipped.
 * - `nofollow`: the page (or the link) said nofollow.
 * - `too-many-links`: its page had more than `max-links-per-page` links before it.
 * - `not-due`: a shared crawl's adaptive recrawl found a link to a page not due yet (its machine keeps it without a request).
 */
export type FilterReason = (typeof FILTER_REASONS)[number];

/**
 * All filter reasons, in pipeline order, e.g. to zero a stats table.
 *
 * @example
 * const counts = Object.fromEntries(FILTER_REASONS.map((r) => [r, 0]));
 * //=> { 'invalid-url': 0, 'unsupported-scheme': 0, ... }
 */
export const FILTER_REASONS = [
  'invalid-url',
  'unsupported-scheme',
  'out-of-scope',
  'rejected',
  'not-accepted',
  'private-address',
  'too-long',
  'path-repetition',
  'too-deep',
  'duplicate',
  'host-limit',
  'robots',
  'robots-unavailable',
  'crawl-delay',
  'nofollow',
  'too-many-links',
  'not-due',
] as const;

/**
 * Told of every URL admission drops, with the reason (stats count it, log-level 2 logs it); `seed`
 * when the URL is a seed (the crawl then warns, naming it).
 */
export type DropReport = (reason: FilterReason, href: string, detail?: string, seed?: boolean) => void;

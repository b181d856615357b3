import type { OperatorFunction } from 'rxjs';
import type { Fetched, Outcome } from '../model/outcome.js';
import { passOutcomes } from './pass-outcomes.js';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import { readSitemap, type SitemapContents } from '../sitemap/read-sitemap.js';

/** Sitemap indexes nested deeper than this are not followed (SPEC §9). */
export const MAX_SITEMAP_NESTING = 3;

/**
 * Reads the sitemaps among the fetched requests ({@link readSitemap}) instead of describing them as
 * documents: a sitemap gets no index record and no mirror copy. Its URLs become links one level
 * deeper than the sitemap, with their `lastmod`; the sitemaps of an index become sitemap requests
 * at the index's own depth, down to {@link MAX_SITEMAP_NESTING} levels. A sitemap that answers 4xx
 * (most hosts have no /sitemap.xml) is simply missing: {@link fetchPage} makes it a `sitemap` outcome with no URLs.
 *
 * @example
 * of(fetchedSitemap).pipe(readSitemaps()) //=> { kind: 'sitemap', urls: 2, links: [{ href: 'http://a.test/x', depth: 1, sitemapLastmod: '2026-01-02' }, ...] }
 */
export function readSitemaps(): OperatorFunction<Fetched | Outcome, Fetched | Outcome> {
  return passOutcomes<Fetched, Fetched | Outcome>((fetched) =>
    fetched.req.sitemap === undefined ? fetched : readSitemap(fetched.response.body).then((contents) => sitemapOutcome(fetched.req, fetched.response.status, contents)),
  );
}

function sitemapOutcome(req: CrawlRequest, status: number, { urls, sitemaps, cut }: SitemapContents): Outcome {
  const level = req.sitemap! + 1;
  const depth = req.depth + 1;
  // A sitemap lists up to 50,000 URLs: each link made whole, not through a conditional spread (slow in V8).
  const links: Candidate[] = urls.map((u) => (u.lastmod === undefined ? { href: u.loc, base: req.url, depth } : { href: u.loc, base: req.url, depth, sitemapLastmod: u.lastmod }));
  const nested = level <= MAX_SITEMAP_NESTING;
  if (nested) for (const href of sitemaps) links.push({ href, base: req.url, depth: req.depth, sitemap: level });
  const why = cut ?? (!nested && sitemaps.length > 0 ? `sitemap indexes nested deeper than ${MAX_SITEMAP_NESTING}: ${sitemaps.length} sitemaps not read` : undefined);
  return { kind: 'sitemap', req, status, urls: urls.length, sitemaps: sitemaps.length, links, ...(why !== undefined ? { cut: why } : {}) };
}

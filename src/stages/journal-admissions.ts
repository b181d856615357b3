import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { JournalWriter } from '../state/journal-writer.js';

/**
 * Writes every admitted URL to the crawl journal, so that a killed crawl resumes with its frontier
 * and seen-set intact, and the new level of a pending URL that later links moved up. The last admission stage.
 * A URL found again comes through only when its level rose, except in a depth-first crawl, which
 * moves every one up the stack: there `rose` tells which of them changed level.
 *
 * @example
 * pipe(normalizeLinks(report), ..., dedup(seen, report), journalAdmissions(journal))
 */
export function journalAdmissions(journal: JournalWriter, rose?: (req: CrawlRequest) => boolean): MonoTypeOperatorFunction<CrawlRequest> {
  return tap((req) => {
    // A URL found again is pending in the journal already; only a higher level is news (level 1 is where every URL starts).
    if (req.again) {
      if (req.level !== undefined && req.level > 1 && (rose === undefined || rose(req))) journal.append(['l', req.url, req.level]);
      return;
    }
    const sitemap = req.sitemap !== undefined || req.sitemapLastmod !== undefined ? { sitemap: req.sitemap, lastmod: req.sitemapLastmod } : null;
    // An original URL that is the URL itself (most links) is written as null: a broad crawl writes
    // millions of these lines, each a third shorter for it.
    const originalUrl = req.originalUrl === req.url ? null : req.originalUrl;
    if (req.level !== undefined) journal.append(['a', req.url, req.depth, originalUrl, req.redirects, sitemap, req.level]);
    else if (sitemap !== null) journal.append(['a', req.url, req.depth, originalUrl, req.redirects, sitemap]);
    else journal.append(['a', req.url, req.depth, originalUrl, req.redirects]);
  });
}

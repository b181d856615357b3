import { mergeMap, type OperatorFunction } from 'rxjs';
import type { Candidate } from '../frontier/crawl-request.js';
import { normalizeUrl, rejectionOf, type NormalizeOptions } from '../url/normalize-url.js';
import type { Admissible, DropReport } from './admissible.js';

/**
 * Resolves each candidate against its base and normalizes it (SPEC §4); drops what is not an
 * http(s) URL as `invalid-url` or `unsupported-scheme`. A candidate the parser already normalized
 * is not normalized again.
 *
 * @example
 * of({ href: '../b?', base: 'http://A.test/x/y', depth: 1 }).pipe(normalizeLinks(report))
 * //=> { url: 'http://a.test/b', ... }
 */
export function normalizeLinks(report: DropReport, opts?: NormalizeOptions): OperatorFunction<Candidate, Admissible> {
  return mergeMap((candidate: Candidate) => {
    const url = candidate.url ?? normalizeUrl(candidate.href, candidate.base, opts);
    if (url === undefined) {
      report(rejectionOf(candidate.href, candidate.base), candidate.href);
      return [];
    }
    return [{ candidate, url, parsed: new URL(url) }];
  });
}

import { filter, map, pipe, type OperatorFunction } from 'rxjs';
import type { Candidate } from '../model/crawl-request.js';
import { normalizeUrl, rejectionOf, type NormalizeOptions } from '../url/normalize-url.js';
import type { Admissible } from './drop-when.js';
import type { DropReport } from '../model/filter-reason.js';

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
  return pipe(
    map((candidate: Candidate): Admissible | undefined => {
      const url = candidate.url ?? normalizeUrl(candidate.href, candidate.base, opts);
      if (url !== undefined) return { candidate, url };
      report(rejectionOf(candidate.href, candidate.base), candidate.href);
      return undefined;
    }),
    filter((a): a is Admissible => a !== undefined),
  );
}

import type { OperatorFunction } from 'rxjs';
import type { Candidate } from '../model/crawl-request.js';
import { normalizeUrl, rejectionOf, type NormalizeOptions } from '../url/normalize-url.js';
import type { Admissible } from './drop-when.js';
import type { DropReport } from '../model/filter-reason.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';

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
  return stepOperator(normalizeLinksStep(report, opts));
}

/** {@link normalizeLinks} as an {@link AdmissionStep}. */
export function normalizeLinksStep(report: DropReport, opts?: NormalizeOptions): AdmissionStep<Candidate, Admissible> {
  return (candidate) => {
    const url = candidate.url ?? normalizeUrl(candidate.href, candidate.base, opts);
    if (url !== undefined) return { candidate, url };
    report(rejectionOf(candidate.href, candidate.base), candidate.href);
    return undefined;
  };
}

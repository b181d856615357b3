import { filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { Candidate } from '../model/crawl-request.js';
import type { DropReport, FilterReason } from '../model/filter-reason.js';

/** A candidate link on its way through admission, normalized once. */
export interface Admissible {
  readonly candidate: Candidate;
  /** The normalized URL. */
  readonly url: string;
}

/**
 * Builds an admission filter: keeps what `reasonOf` finds nothing against, reports the rest (saying
 * which are seeds).
 *
 * @example
 * const tooDeep = dropWhen<Admissible>(report, (a) => (a.candidate.depth > 20 ? 'too-deep' : undefined));
 */
export function dropWhen<T extends { readonly url: string }>(
  report: DropReport,
  reasonOf: (value: T) => FilterReason | undefined,
): MonoTypeOperatorFunction<T> {
  return filter((value) => {
    const reason = reasonOf(value);
    if (reason === undefined) return true;
    report(reason, value.url, undefined, (value as Partial<Admissible>).candidate?.seed === true);
    return false;
  });
}

import type { MonoTypeOperatorFunction } from 'rxjs';
import type { Candidate } from '../model/crawl-request.js';
import type { DropReport, FilterReason } from '../model/filter-reason.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';

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
  return stepOperator(dropStep(report, reasonOf));
}

/** {@link dropWhen} as an {@link AdmissionStep}, for a chain of checks run as one stage. */
export function dropStep<T extends { readonly url: string }>(report: DropReport, reasonOf: (value: T) => FilterReason | undefined): AdmissionStep<T, T> {
  return (value) => {
    const reason = reasonOf(value);
    if (reason === undefined) return value;
    report(reason, value.url, undefined, (value as Partial<Admissible>).candidate?.seed === true);
    return undefined;
  };
}

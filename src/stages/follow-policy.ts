import type { MonoTypeOperatorFunction } from 'rxjs';
import { dropStep, type Admissible } from './drop-when.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';
import { type DropReport } from '../model/filter-reason.js';
import type { LinkPolicy } from '../url/link-policy.js';

/**
 * Applies scope and the accept/reject lists during admission. Seeds pass (SPEC §4: seeds are always
 * fetched), and so do links the parser already vetted with the same policy.
 *
 * @example
 * of(admissible).pipe(followPolicy(policy, report)) //=> admissible, or nothing ('out-of-scope')
 */
export function followPolicy(policy: LinkPolicy, report: DropReport): MonoTypeOperatorFunction<Admissible> {
  return stepOperator(followPolicyStep(policy, report));
}

/** {@link followPolicy} as an {@link AdmissionStep}. */
export function followPolicyStep(policy: LinkPolicy, report: DropReport): AdmissionStep<Admissible, Admissible> {
  return dropStep<Admissible>(report, (a) => {
    if (a.candidate.seed || a.candidate.vetted) return undefined;
    const reason = policy.check(a.candidate.href, a.url);
    // An accept list names the documents wanted; a sitemap is the list of links that leads to them.
    return reason === 'not-accepted' && a.candidate.sitemap !== undefined ? undefined : reason;
  });
}

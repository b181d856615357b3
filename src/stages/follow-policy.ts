import type { MonoTypeOperatorFunction } from 'rxjs';
import { dropWhen, type Admissible, type DropReport } from './admissible.js';
import type { LinkPolicy } from './link-policy.js';

/**
 * Applies scope and the accept/reject lists during admission. Seeds pass (SPEC §4: seeds are always
 * fetched), and so do links the parser already vetted with the same policy.
 *
 * @example
 * of(admissible).pipe(followPolicy(policy, report)) //=> admissible, or nothing ('out-of-scope')
 */
export function followPolicy(policy: LinkPolicy, report: DropReport): MonoTypeOperatorFunction<Admissible> {
  return dropWhen<Admissible>(report, (a) =>
    a.candidate.seed || a.candidate.vetted ? undefined : policy.check(a.candidate.href, a.url),
  );
}

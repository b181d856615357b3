import type { MonoTypeOperatorFunction } from 'rxjs';
import { exceedsPathRepetition, exceedsUrlLength } from '../url/trap-filters.js';
import { pathnameOf } from '../url/url-parts.js';
import { dropStep, type Admissible } from './drop-when.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';
import { type DropReport } from '../model/filter-reason.js';

/** The crawler-trap limits of the configuration that {@link trapLimits} applies. */
export interface TrapLimits {
  /** Characters of the normalized URL; 0 = no limit. */
  readonly maxUrlLength: number;
  /** Times one path segment may repeat; 0 = no limit. */
  readonly maxPathRepetition: number;
  /** Links from a seed; 0 = no limit. */
  readonly maxDepth: number;
}

/**
 * Spider-trap defences that need nothing but the URL: too long, a path segment repeated too often
 * (`/a/b/a/b/a/b/...`), too many links from a seed. Cheapest checks first.
 *
 * @example
 * of(admissible).pipe(trapLimits({ maxUrlLength: 2048, maxPathRepetition: 3, maxDepth: 20 }, report))
 */
export function trapLimits(limits: TrapLimits, report: DropReport): MonoTypeOperatorFunction<Admissible> {
  return stepOperator(trapLimitsStep(limits, report));
}

/** {@link trapLimits} as an {@link AdmissionStep}. */
export function trapLimitsStep(limits: TrapLimits, report: DropReport): AdmissionStep<Admissible, Admissible> {
  return dropStep<Admissible>(report, (a) => {
    if (limits.maxDepth > 0 && a.candidate.depth > limits.maxDepth) return 'too-deep';
    if (exceedsUrlLength(a.url, limits.maxUrlLength)) return 'too-long';
    if (limits.maxPathRepetition > 0 && exceedsPathRepetition({ pathname: pathnameOf(a.url) }, limits.maxPathRepetition)) return 'path-repetition';
    return undefined;
  });
}

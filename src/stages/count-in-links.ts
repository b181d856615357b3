import type { MonoTypeOperatorFunction } from 'rxjs';
import type { InLinkCounts } from '../frontier/in-link-counts.js';
import type { Admissible } from './drop-when.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';

/**
 * Counts each link found on a page (not seeds, redirects or a recrawl's known pages) towards its
 * target's in-links, before the seen-set drops the links to URLs already admitted: those are most
 * of the count. Placed after scope and the lists, so links the crawl will never take count nothing.
 *
 * @example
 * pipe(followPolicy(policy, report), countInLinks(counts), dedup(seen, report))
 */
export function countInLinks(counts: InLinkCounts): MonoTypeOperatorFunction<Admissible> {
  return stepOperator(countInLinksStep(counts));
}

/** {@link countInLinks} as an {@link AdmissionStep}: every link passes. */
export function countInLinksStep(counts: InLinkCounts): AdmissionStep<Admissible, Admissible> {
  return (a) => {
    const c = a.candidate;
    if (c.base !== undefined && c.redirects === undefined) counts.add(a.url);
    return a;
  };
}

import type { FilterReason } from '../model/filter-reason.js';
import type { ScopePredicate } from './scope.js';
import { urlParts } from './url-parts.js';

/** Scope and accept/reject lists, shared by admission and by the index's link lines (SPEC §6). */
export interface LinkPolicy {
  /** Why a link (as written, and normalized) is not followed or listed; undefined when it passes. */
  check(raw: string, normalized: string): FilterReason | undefined;
}

/**
 * Composes a scope test and an accept/reject list filter into one policy.
 *
 * @example
 * const policy = linkPolicy(makeScope('host-scope', seeds), makeListFilter(accept, reject));
 * policy.check('x.tmp', 'http://a.test/x.tmp') //=> 'rejected'
 */
export function linkPolicy(
  inScope: ScopePredicate,
  lists: (raw: string, normalized: string) => 'rejected' | 'not-accepted' | undefined,
): LinkPolicy {
  return {
    check(raw, normalized) {
      if (!inScope(urlParts(normalized))) return 'out-of-scope';
      return lists(raw, normalized);
    },
  };
}

import type { FilterReason } from '../model/filter-reason.js';

/** Why admission dropped a seed, and the key (and its flag) that would let it through. */
const WHY: Partial<Record<FilterReason, string>> = {
  'private-address': 'its address is loopback, private or reserved; allow-private-addresses = true (--allow-private-addresses) lets it through',
  'out-of-scope': 'it is outside the scope; a wider scope (--scope) lets it through',
  rejected: 'reject-list (--reject-list) matches it',
  'not-accepted': 'accept-list (--accept-list) does not match it',
  'too-long': 'it is longer than max-url-length; a higher max-url-length (--max-url-length, 0 = no limit) lets it through',
  'path-repetition': 'a path segment repeats more than max-path-repetition times; a higher max-path-repetition (--max-path-repetition, 0 = no limit) lets it through',
  'too-deep': 'it is deeper than max-depth (--max-depth, 0 = no limit)',
  'host-limit': 'its host has max-pages-per-host URLs already (--max-pages-per-host, 0 = no limit)',
};

/**
 * The warning for a seed that admission dropped: a seed is a URL the user named, so its drop is
 * said at log-level 0, where a link's is only counted. A seed seen twice is no news: no warning.
 *
 * @example
 * droppedSeedWarning('private-address')
 * //=> 'seed not crawled: its address is loopback, private or reserved; allow-private-addresses = true (--allow-private-addresses) lets it through'
 */
export function droppedSeedWarning(reason: FilterReason): string | undefined {
  if (reason === 'duplicate') return undefined;
  const why = WHY[reason];
  return why === undefined ? `seed not crawled (${reason})` : `seed not crawled: ${why}`;
}

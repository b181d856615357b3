import type { FilterReason } from '../model/filter-reason.js';

/**
 * Why admission dropped a seed, and the key (and its flag) that would let it through. Scope and the
 * accept/reject lists never drop a seed (SPEC §4); the host limit and robots.txt judge requests,
 * which no longer say whether they were seeds.
 */
const WHY: Partial<Record<FilterReason, string>> = {
  'private-address': 'its address is loopback, private or reserved; allow-private-addresses = true (--allow-private-addresses) lets it through',
  'too-long': 'it is longer than max-url-length; a higher max-url-length (--max-url-length, 0 = no limit) lets it through',
  'path-repetition': 'a path segment repeats more than max-path-repetition times; a higher max-path-repetition (--max-path-repetition, 0 = no limit) lets it through',
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

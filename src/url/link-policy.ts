import type { CrawlerConfig, ScopeMode } from '../model/config.js';
import type { FilterReason } from '../model/filter-reason.js';
import { growingScope } from './scope.js';
import { makeListFilter } from './url-lists.js';
import { urlParts } from './url-parts.js';

/**
 * Scope and accept/reject lists as plain data: built once from the configuration, it crosses to
 * the document workers as it is, and each thread makes the same {@link LinkPolicy} of it.
 */
export interface LinkPolicySource {
  readonly scope: ScopeMode;
  /** The seeds the scope is drawn around (the starting points, and the seeds of input files read so far). */
  readonly seeds: readonly string[];
  /** Source and flags of each accept and reject pattern. */
  readonly accept: readonly (readonly [string, string])[];
  readonly reject: readonly (readonly [string, string])[];
}

/** Scope and accept/reject lists, shared by admission and by the index's link lines (SPEC §6). */
export interface LinkPolicy {
  /** Why a link (as written, and normalized) is not followed or listed; undefined when it passes. */
  check(raw: string, normalized: string): FilterReason | undefined;
  /** Widens the scope by one more seed (an input file's); false when the scope covered it already. */
  widen(seed: string): boolean;
}

const sourceOf = (list: readonly RegExp[]) => list.map((re) => [re.source, re.flags] as const);

/**
 * The link policy of a configuration, as data, with `seeds` added to its starting points.
 *
 * @example
 * linkPolicySource(config, []) //=> { scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [['\\.tmp$', '']] }
 */
export function linkPolicySource(config: Pick<CrawlerConfig, 'scope' | 'startingPoints' | 'acceptList' | 'rejectList'>, seeds: readonly string[] = []): LinkPolicySource {
  return { scope: config.scope, seeds: [...config.startingPoints, ...seeds], accept: sourceOf(config.acceptList), reject: sourceOf(config.rejectList) };
}

/**
 * The policy a source describes: the scope test first, then the lists.
 *
 * @example
 * const policy = linkPolicy({ scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [['\\.tmp$', '']] });
 * policy.check('x.tmp', 'http://a.test/x.tmp') //=> 'rejected'
 */
export function linkPolicy(source: LinkPolicySource): LinkPolicy {
  const regexes = (list: LinkPolicySource['accept']) => list.map(([pattern, flags]) => new RegExp(pattern, flags));
  const scope = growingScope(source.scope, source.seeds);
  const lists = makeListFilter(regexes(source.accept), regexes(source.reject));
  return {
    check(raw, normalized) {
      if (!scope.test(urlParts(normalized))) return 'out-of-scope';
      return lists(raw, normalized);
    },
    widen: (seed) => scope.add(seed),
  };
}

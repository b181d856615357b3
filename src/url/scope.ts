import type { ScopeMode } from '../model/config.js';
import { normalizeUrl, withoutWww, type NormalizeOptions } from './normalize-url.js';

/** Tells whether a URL (parsed from a normalized URL string) lies in the crawl's scope. */
/** What a scope looks at: a `URL`, or {@link urlParts} of a normalized URL (no parse needed). */
export type ScopeTarget = Pick<URL, 'hostname' | 'origin' | 'pathname'>;
/** Whether a URL is in the crawl's scope. */
export type ScopePredicate = (url: ScopeTarget) => boolean;

/** True when some proper parent domain of `host` (a suffix after a dot) is in `domains`. */
function hasParentIn(host: string, domains: ReadonlySet<string>): boolean {
  for (let dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
    if (domains.has(host.slice(dot + 1))) return true;
  }
  return false;
}

function parseSeed(seed: string, opts: NormalizeOptions | undefined): URL | undefined {
  const normalized = normalizeUrl(seed, undefined, opts);
  return normalized === undefined ? undefined : new URL(normalized);
}

/** A scope's sets, and how one seed adds to them (false when it adds nothing). */
interface ScopeSets {
  readonly test: ScopePredicate;
  add(seed: URL): boolean;
}

function domainScope(): ScopeSets {
  const domains = new Set<string>();
  return {
    test: (url) => domains.has(url.hostname) || hasParentIn(url.hostname, domains),
    add(u) {
      const domain = withoutWww(u.hostname);
      // foo2.foo1.domain.com adds nothing to foo1.domain.com: fewer entries, fewer lookups.
      if (domains.has(domain) || hasParentIn(domain, domains)) return false;
      domains.add(domain);
      return true;
    },
  };
}

function hostScope(): ScopeSets {
  const origins = new Set<string>();
  return {
    test: (url) => origins.has(url.origin),
    add: (u) => origins.size !== origins.add(u.origin).size,
  };
}

function pathScope(): ScopeSets {
  const dirsByOrigin = new Map<string, string[]>();
  return {
    test(url) {
      const dirs = dirsByOrigin.get(url.origin);
      if (dirs === undefined) return false;
      const path = url.pathname;
      for (const dir of dirs) if (path.startsWith(dir)) return true;
      return false;
    },
    add(u) {
      const dir = u.pathname.slice(0, u.pathname.lastIndexOf('/') + 1);
      const dirs = dirsByOrigin.get(u.origin) ?? [];
      // A directory inside another seed's directory adds nothing: keep only the outermost ones.
      if (dirs.some((d) => dir.startsWith(d))) return false;
      dirsByOrigin.set(u.origin, [...dirs.filter((d) => !d.startsWith(dir)), dir]);
      return true;
    },
  };
}

const anyHost: ScopeSets = { test: () => true, add: () => false };

/** A scope that seeds arriving during the crawl (input files, stdin) widen. */
export interface GrowingScope {
  readonly test: ScopePredicate;
  /** Widens the scope by one seed; false when the scope already covered it (or it is no crawlable URL). */
  add(seed: string): boolean;
}

/**
 * The scope of {@link makeScope}, which later seeds can widen: `test` always answers for every seed
 * added so far. The sets it keeps grow with what the seeds add to the scope (hosts, domains or
 * folders), not with the number of seeds.
 *
 * @example
 * const scope = growingScope('host-scope', ['http://a.test/']);
 * scope.test(new URL('http://b.test/x')); //=> false
 * scope.add('http://b.test/');            //=> true
 * scope.test(new URL('http://b.test/x')); //=> true
 */
export function growingScope(mode: ScopeMode, seeds: readonly string[], opts?: NormalizeOptions): GrowingScope {
  const sets = mode === 'free-spanning' ? anyHost : mode === 'domain-scope' ? domainScope() : mode === 'host-scope' ? hostScope() : pathScope();
  for (const seed of seeds) {
    const url = parseSeed(seed, opts);
    if (url === undefined) throw new RangeError(`not a crawlable http(s) seed URL: ${seed}`);
    sets.add(url);
  }
  return {
    test: sets.test,
    add(seed) {
      const url = parseSeed(seed, opts);
      return url !== undefined && sets.add(url);
    },
  };
}

/**
 * Builds the scope check of SPEC §4 from the seeds, once per crawl; the returned predicate does one
 * or a few set lookups per URL.
 *
 * - `free-spanning`: any host.
 * - `domain-scope`: the host is a seed host or a subdomain of one, ignoring a leading `www.` of a
 *   seed host; any scheme and port. Seeds foo1.domain.com and foo2.foo1.domain.com give {foo1.domain.com}.
 * - `host-scope`: scheme, host and port equal some seed's.
 * - `path-scope`: as host-scope, and the path starts with the seed's directory: everything up to its last
 *   `/` (`/index.html` admits the whole host, `/path/index.html` only `/path/...`, and `/path` is in `/`).
 *
 * Seeds are normalized first, with `opts` (use the crawl's NormalizeOptions, so that `stripWww` agrees);
 * a seed that is not a crawlable http(s) URL throws a RangeError. Pass the predicate normalized URLs,
 * as `urlParts(normalized)` or parsed, so that their paths compare escape for escape.
 *
 * @example
 * const inScope = makeScope('path-scope', ['http://www.sample.com/path/index.html']);
 * inScope(new URL('http://www.sample.com/path/a/b.html')); //=> true
 * inScope(new URL('http://www.sample.com/other.html'));    //=> false
 */
export function makeScope(mode: ScopeMode, seeds: readonly string[], opts?: NormalizeOptions): ScopePredicate {
  return growingScope(mode, seeds, opts).test;
}

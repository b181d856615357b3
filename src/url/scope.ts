import type { ScopeMode } from '../config/config.js';
import { normalizeUrl, withoutWww, type NormalizeOptions } from './normalize-url.js';

/** Tells whether a URL (parsed from a normalized URL string) lies in the crawl's scope. */
/** What a scope looks at: a `URL`, or {@link urlParts} of a normalized URL (no parse needed). */
export type ScopeTarget = Pick<URL, 'hostname' | 'origin' | 'pathname'>;
export type ScopePredicate = (url: ScopeTarget) => boolean;

/** True when some proper parent domain of `host` (a suffix after a dot) is in `domains`. */
function hasParentIn(host: string, domains: ReadonlySet<string>): boolean {
  for (let dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
    if (domains.has(host.slice(dot + 1))) return true;
  }
  return false;
}

function parseSeeds(seeds: readonly string[], opts: NormalizeOptions | undefined): URL[] {
  return seeds.map((seed) => {
    const normalized = normalizeUrl(seed, undefined, opts);
    if (normalized === undefined) throw new RangeError(`not a crawlable http(s) seed URL: ${seed}`);
    return new URL(normalized);
  });
}

function domainScope(seeds: readonly URL[]): ScopePredicate {
  const all = new Set(seeds.map((u) => withoutWww(u.hostname)));
  // foo2.foo1.domain.com adds nothing to foo1.domain.com: keep the minimal set, so fewer lookups.
  const domains = new Set([...all].filter((d) => !hasParentIn(d, all)));
  return (url) => domains.has(url.hostname) || hasParentIn(url.hostname, domains);
}

function hostScope(seeds: readonly URL[]): ScopePredicate {
  const origins = new Set(seeds.map((u) => u.origin));
  return (url) => origins.has(url.origin);
}

function pathScope(seeds: readonly URL[]): ScopePredicate {
  const dirsByOrigin = new Map<string, string[]>();
  for (const u of seeds) {
    const dir = u.pathname.slice(0, u.pathname.lastIndexOf('/') + 1);
    const dirs = dirsByOrigin.get(u.origin) ?? [];
    // A directory inside another seed's directory adds nothing: keep only the outermost ones.
    if (dirs.some((d) => dir.startsWith(d))) continue;
    dirsByOrigin.set(u.origin, [...dirs.filter((d) => !d.startsWith(dir)), dir]);
  }
  return (url) => {
    const dirs = dirsByOrigin.get(url.origin);
    if (dirs === undefined) return false;
    const path = url.pathname;
    for (const dir of dirs) if (path.startsWith(dir)) return true;
    return false;
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
  switch (mode) {
    case 'free-spanning':
      return () => true;
    case 'domain-scope':
      return domainScope(parseSeeds(seeds, opts));
    case 'host-scope':
      return hostScope(parseSeeds(seeds, opts));
    case 'path-scope':
      return pathScope(parseSeeds(seeds, opts));
  }
}

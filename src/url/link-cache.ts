import { normalizeUrl, quickNormalize, type NormalizeOptions } from './normalize-url.js';

/** Remembered answers; the cache starts over when it is full, which costs one miss per link. */
const DEFAULT_SIZE = 8192;

/** Remembered for a link that is no crawlable URL: a look-up that finds nothing is a miss. */
const NOT_HTTP = '';

const SCHEME_AUTHORITY = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/**
 * `href` under the part of `base` its resolution can depend on; undefined when that is all of it.
 * Joined, not concatenated: a concatenation would keep `href`, a slice of its page's text, and with
 * it the whole page alive for as long as the key is remembered.
 */
function keyOf(href: string, base: string): string | undefined {
  const c = href.charCodeAt(0);
  if (c === 0x2f /* / */) {
    const c2 = href.charCodeAt(1);
    if (c2 === 0x2f || c2 === 0x5c /* \ */) return undefined; // `//host`: depends on the scheme only, rare
    const authorityEnd = base.indexOf('/', base.indexOf('//') + 2);
    return [authorityEnd < 0 ? base : base.slice(0, authorityEnd), href].join('\n');
  }
  if (isPathStart(c)) {
    // A relative path (no scheme: no `:` in its first segment) depends only on the base's folder.
    for (let i = 1; i < href.length; i++) {
      const d = href.charCodeAt(i);
      if (d === 0x3a /* : */) return undefined;
      if (d === 0x2f || d === 0x3f || d === 0x23 || d === 0x5c) break;
    }
    const query = base.indexOf('?');
    const folderEnd = base.lastIndexOf('/', query < 0 ? base.length : query);
    return [base.slice(0, folderEnd + 1), href].join('\n');
  }
  return SCHEME_AUTHORITY.test(href) ? ['', href].join('\n') : undefined;
}

/** A character a relative path can begin with (not `/`, `?`, `#`, whitespace or a control). */
const isPathStart = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x5f || c === 0x2d || c === 0x7e || c === 0x25;

/**
 * `normalizeUrl` for the links of many pages of one site, remembering recent answers: the
 * navigation links of a site repeat on every page, and resolving a relative link costs a join and
 * a scan even when no parse is needed. A link is remembered under the part of the base its
 * resolution depends on — nothing for an absolute URL, the origin for an absolute path, the folder
 * for a relative path; any other href (`?q`, `#x`, `//host`, odd whitespace) is resolved afresh. An
 * absolute URL the parser would give back as written is answered by a scan (`quickNormalize`), which
 * costs less than the look-up. `opts` are fixed for the cache's life.
 *
 * @example
 * const resolve = cachedNormalizer();
 * resolve('../b.html', 'http://a.test/x/y.html') //=> 'http://a.test/b.html' (parsed)
 * resolve('../b.html', 'http://a.test/x/z.html') //=> 'http://a.test/b.html' (remembered)
 */
export function cachedNormalizer(opts?: NormalizeOptions, size = DEFAULT_SIZE): (href: string, base: string) => string | undefined {
  const memory = new Map<string, string>();
  return (href, base) => {
    if (SCHEME_AUTHORITY.test(href)) {
      // An absolute URL needs no join to its base: the scan answers a plain one for less than a look-up.
      const quick = quickNormalize(href, base, opts);
      if (quick !== null) return quick;
    }
    const key = keyOf(href, base);
    if (key === undefined) return normalizeUrl(href, base, opts);
    const known = memory.get(key);
    if (known !== undefined) return known === NOT_HTTP ? undefined : known;
    const url = normalizeUrl(href, base, opts);
    if (memory.size >= size) memory.clear();
    memory.set(key, url ?? NOT_HTTP);
    return url;
  };
}

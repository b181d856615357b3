import { normalizePercentEscapes } from './percent-escapes.js';
import { rewriteQuery, stripPathSessionIds } from './query-params.js';
import { plainHref } from './plain-href.js';

/** The optional normalizations of SPEC §4. Each is off by default. */
export interface NormalizeOptions {
  /** sortQuery (boolean). Default: false. Sort query parameters by name; the sort is stable and never re-encodes. */
  readonly sortQuery?: boolean;
  /** stripWww (boolean). Default: false. Drop a leading `www.` from the host when a dotted name remains (`www.com` stays). */
  readonly stripWww?: boolean;
  /**
   * stripTracking (boolean). Default: false. Drop the query parameters of `TRACKING_PARAMS` and
   * `TRACKING_PREFIXES` (utm_*, fbclid, gclid, ..., and session ids such as jsessionid, phpsessid, sid)
   * and `;jsessionid=` path parameters.
   */
  readonly stripTracking?: boolean;
}

/** Why `normalizeUrl` returned undefined. */
export type UrlRejection = 'invalid-url' | 'unsupported-scheme';

const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/** True when every code unit is a C0 control or space: the WHATWG parser would strip it all. */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x20) return false;
  return true;
}

/** The parser accepts any length (UTS #46 without VerifyDnsLength), but DNS cannot resolve such names. */
function isResolvableLength(hostname: string): boolean {
  if (hostname.length <= MAX_LABEL_LENGTH) return true;
  if (hostname.length > MAX_HOST_LENGTH) return false;
  let labelStart = 0;
  for (let dot = hostname.indexOf('.'); dot >= 0; dot = hostname.indexOf('.', labelStart)) {
    if (dot - labelStart > MAX_LABEL_LENGTH) return false;
    labelStart = dot + 1;
  }
  return hostname.length - labelStart <= MAX_LABEL_LENGTH;
}

function parse(href: string, base: string | URL | undefined): URL | null {
  // A blank href would resolve to the referring page itself: a self-link, never a new document.
  if (isBlank(href)) return null;
  // URL.parse returns null instead of throwing: failures are common in real pages, and throwing is slow.
  const url = URL.parse(href, typeof base === 'object' ? base.href : base);
  return url !== null && isResolvableLength(url.hostname) ? url : null;
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/**
 * Resolves `href` against `base` and normalizes it as SPEC §4 says; undefined when it is not a
 * crawlable http(s) URL. The WHATWG parser (Node's `URL`) lowercases scheme and host, converts IDNs
 * to punycode, drops the default port, removes dot-segments and makes an empty path `/`; on top of it
 * the fragment and an empty query are dropped and percent-escapes are normalized
 * (`normalizePercentEscapes`). Everything else is the standard's serialization, i.e. what a browser
 * would request. Pass `<base href>`, when the page has one, already resolved as `base`.
 *
 * @example
 * normalizeUrl('../%7Ejo/Caf%c3%a9.html?#top', 'HTTP://Www.Example.COM:80/a/b/');
 * //=> 'http://www.example.com/a/~jo/Caf%C3%A9.html'
 * normalizeUrl('mailto:jo@example.com'); //=> undefined
 * normalizeUrl('/b?utm_source=x&id=2', 'https://www.example.com/', { stripWww: true, stripTracking: true });
 * //=> 'https://example.com/b?id=2'
 */
export function normalizeUrl(href: string, base?: string | URL, opts?: NormalizeOptions): string | undefined {
  const quick = quickNormalize(href, base, opts);
  return quick !== null ? quick : parsedNormalize(href, base, opts);
}

/**
 * {@link normalizeUrl} for the links the parser would give back as written ({@link plainHref}),
 * without the parse; null when only the parser can say. The answer shares no memory with `href`,
 * a slice of its page's text as the scanner found it: a URL kept for later would keep the page.
 */
export function quickNormalize(href: string, base?: string | URL, opts?: NormalizeOptions): string | undefined | null {
  if (isBlank(href)) return undefined;
  if (typeof base === 'object' || opts?.stripWww === true) return null;
  const plain = plainHref(href, base);
  if (plain === undefined) return null;
  if (plain === false) return undefined;
  // Concatenated, then sliced: V8 copies a concatenation into one new string before slicing it.
  return finish((' ' + plain).slice(1), undefined, opts);
}

/** {@link normalizeUrl} by way of the parser, for any link. */
export function parsedNormalize(href: string, base?: string | URL, opts?: NormalizeOptions): string | undefined {
  const url = parse(href, base);
  if (url === null || !isHttp(url)) return undefined;
  return finish(url.href, url, opts);
}

/** SPEC §4 on top of the parser's serialization `s`: no fragment, no empty query, escapes normalized, then the options (`url` is `s` parsed, needed for `stripWww`). */
function finish(s: string, url: URL | undefined, opts: NormalizeOptions | undefined): string {
  // In a serialized http(s) URL, `#` and `?` are escaped everywhere else, so the first of each is the delimiter.
  const hash = s.indexOf('#');
  if (hash >= 0) s = s.slice(0, hash);
  if (s.charCodeAt(s.length - 1) === 0x3f) s = s.slice(0, -1);
  s = normalizePercentEscapes(s);
  return opts === undefined ? s : applyOptions(s, url, opts);
}

/**
 * Says why `normalizeUrl(href, base)` returned undefined, for stats and debug logs; call it only then.
 *
 * @example
 * rejectionOf('javascript:void(0)'); //=> 'unsupported-scheme'
 * rejectionOf('http://exa mple.com/'); //=> 'invalid-url'
 */
export function rejectionOf(href: string, base?: string | URL): UrlRejection {
  const url = parse(href, base);
  return url === null || isHttp(url) ? 'invalid-url' : 'unsupported-scheme';
}

function applyOptions(s: string, url: URL | undefined, opts: NormalizeOptions): string {
  if (opts.stripWww === true && url !== undefined) s = stripWww(s, url);
  if (opts.sortQuery !== true && opts.stripTracking !== true) return s;
  const q = s.indexOf('?');
  let head = q < 0 ? s : s.slice(0, q);
  if (opts.stripTracking === true) head = stripPathSessionIds(head);
  if (q < 0) return head;
  const query = rewriteQuery(s.slice(q + 1), { sort: opts.sortQuery === true, stripTracking: opts.stripTracking === true });
  return query === '' ? head : head + '?' + query;
}

/**
 * The host without a leading `www.`, when a dotted name remains: `www.com` and `www.com.` stay as they are.
 *
 * @example
 * withoutWww('www.example.com'); //=> 'example.com'
 */
export function withoutWww(hostname: string): string {
  if (!hostname.startsWith('www.')) return hostname;
  const dot = hostname.indexOf('.', 4);
  return dot > 4 && dot < hostname.length - 1 ? hostname.slice(4) : hostname;
}

function stripWww(s: string, url: URL): string {
  if (withoutWww(url.hostname) === url.hostname) return s;
  // `@` is escaped inside userinfo, so the first one ends it.
  const start = url.username !== '' || url.password !== '' ? s.indexOf('@') + 1 : url.protocol.length + 2;
  return s.slice(0, start) + s.slice(start + 4);
}

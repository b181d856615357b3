/**
 * Links written the way the WHATWG parser serializes them — a lowercase http(s) scheme, a lowercase
 * ASCII host name, a plain path and query — resolve to a string the parser would give back
 * unchanged, so a scan of their characters can stand in for the parse. Most links of most pages are
 * of that kind; a parse (`URL.parse`, then its `href`) costs about ten times the scan. Anything the
 * parser could change is left to it: the scan answers only when it is sure.
 */

const HOST = 1;
const PATH = 2;
const QUERY = 4;
const SCHEME = 8;

/** What each ASCII character may be, unchanged by the parser, in a host, a path, a query, a scheme. */
const CLASS = new Uint8Array(128);
const mark = (chars: string, flag: number): void => {
  for (let i = 0; i < chars.length; i++) CLASS[chars.charCodeAt(i)]! |= flag;
};
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
mark(LOWER_ALNUM + '-', HOST);
// The path percent-encode set and the special-query one (which adds `'`) left out, and `\`, which
// the parser reads as `/`, and `[ ] ^ | "` which some parsers' versions escape and others do not.
mark(LOWER_ALNUM + UPPER + "-._~!$&()*+,;=:@/%", PATH | QUERY);
mark("'", PATH);
mark('?', QUERY);
mark(LOWER_ALNUM + UPPER + '+-.', SCHEME);

const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const QUESTION = 0x3f;
const HASH = 0x23;
const DOT = 0x2e;
const HYPHEN = 0x2d;
const COLON = 0x3a;
const PERCENT = 0x25;

const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

const is = (c: number, flag: number): boolean => c < 128 && (CLASS[c]! & flag) !== 0;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * Where the path (and query) starting at `i` ends — at a `#` or the end — or -1 when the parser
 * would change it: a character it escapes, or a segment that could be a dot-segment (`.`, `..`,
 * `%2e` ...; any segment starting with a dot is left to the parser).
 */
function pathEnd(s: string, i: number, segmentStart: boolean): number {
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === HASH) return i;
    if (c === QUESTION) return queryEnd(s, i + 1);
    if (!is(c, PATH)) return -1;
    if (segmentStart && (c === DOT || (c === PERCENT && s.charCodeAt(i + 1) === 0x32 && (s.charCodeAt(i + 2) | 0x20) === 0x65))) return -1;
    segmentStart = c === SLASH;
  }
  return i;
}

/** Where the query starting at `i` ends, or -1 when the parser would change it. */
function queryEnd(s: string, i: number): number {
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === HASH) return i;
    if (!is(c, QUERY)) return -1;
  }
  return i;
}

/**
 * Where the authority of an absolute http(s) URL starting at `i` ends, or -1 unless it is a host
 * name the parser keeps as it is (lowercase letter-digit-hyphen labels, none empty, none `xn--`,
 * the last not starting with a digit, which could make it an IPv4 address, lengths DNS can resolve)
 * and an optional port that is not the scheme's default, in its shortest form.
 */
function authorityEnd(s: string, i: number, defaultPort: string): number {
  const start = i;
  let label = i;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === DOT) {
      if (i === label || s.charCodeAt(i - 1) === HYPHEN || i - label > MAX_LABEL_LENGTH) return -1;
      label = i + 1;
    } else if (!is(c, HOST)) {
      break;
    } else if (i === label && (c === HYPHEN || (c === 0x78 /* x */ && s.startsWith('xn--', i)))) {
      return -1;
    }
  }
  if (i === label || s.charCodeAt(i - 1) === HYPHEN || i - label > MAX_LABEL_LENGTH || i - start > MAX_HOST_LENGTH || isDigit(s.charCodeAt(label))) return -1;
  if (s.charCodeAt(i) !== COLON) return i;
  const port = ++i;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  const digits = i - port;
  if (digits === 0 || digits > 5 || s.charCodeAt(port) === 0x30) return -1;
  if (digits === 5 && s.slice(port, i) > '65535') return -1;
  if (digits === defaultPort.length && s.startsWith(defaultPort, port)) return -1;
  return i;
}

/** `href`, an absolute http(s) URL (its scheme ends at `colon`), as the parser serializes it, without the fragment. */
function absolute(href: string, colon: number): string | false | undefined {
  const https = colon === 5;
  if (!href.startsWith(https ? 'https://' : 'http://')) {
    const scheme = href.slice(0, colon).toLowerCase();
    return scheme === 'http' || scheme === 'https' ? undefined : false;
  }
  const end = authorityEnd(href, colon + 3, https ? '443' : '80');
  if (end < 0) return undefined;
  const c = href.charCodeAt(end);
  if (c === SLASH) {
    const last = pathEnd(href, end, false);
    return last < 0 ? undefined : href.slice(0, last);
  }
  // No path: the parser makes it `/`.
  if (c === QUESTION) {
    const last = queryEnd(href, end + 1);
    return last < 0 ? undefined : href.slice(0, end) + '/' + href.slice(end, last);
  }
  return end === href.length || c === HASH ? href.slice(0, end) + '/' : undefined;
}

/** The end of a scheme that starts `href` (the index of its `:`), or -1 when `href` has none. */
function schemeEnd(href: string): number {
  const first = href.charCodeAt(0) | 0x20;
  if (first < 0x61 || first > 0x7a) return -1;
  for (let i = 1; i < href.length; i++) {
    const c = href.charCodeAt(i);
    if (c === COLON) return i;
    if (!is(c, SCHEME)) return -1;
  }
  return -1;
}

let checkedBase: string | undefined;
let plainBase = false;

/** Whether `base` is an absolute http(s) URL as the parser serializes it, with no fragment (the last answer is remembered: a page's links share one base). */
function isPlainBase(base: string): boolean {
  if (base !== checkedBase) {
    checkedBase = base;
    plainBase = plainHref(base, undefined) === base;
  }
  return plainBase;
}

/**
 * `href` resolved against `base`, as the WHATWG parser serializes it, without the fragment —
 * when that can be told without parsing: an absolute http(s) URL, or an absolute path, a query, a
 * fragment or a relative path (no dot-segments) against a base such as `plainHref` gives back
 * unchanged. `false` when `href` is a URL of another scheme (`mailto:`, `javascript:` ...);
 * `undefined` when only the parser can say (`href` must not be blank: the caller drops those).
 *
 * @example
 * plainHref('p/2.html?x#top', 'http://a.test/p/1.html'); //=> 'http://a.test/p/p/2.html?x'
 * plainHref('http://a.test', undefined);                  //=> 'http://a.test/'
 * plainHref('mailto:jo@a.test', undefined);               //=> false
 * plainHref('HTTP://A.test/', undefined);                 //=> undefined (the parser lowercases it)
 */
export function plainHref(href: string, base: string | undefined): string | false | undefined {
  const colon = schemeEnd(href);
  if (colon >= 0) return absolute(href, colon);
  if (base === undefined || href.length === 0 || !isPlainBase(base)) return undefined;
  const c = href.charCodeAt(0);
  if (c === HASH) return base;
  const query = base.indexOf('?');
  if (c === QUESTION) {
    const last = queryEnd(href, 1);
    return last < 0 ? undefined : (query < 0 ? base : base.slice(0, query)) + href.slice(0, last);
  }
  let prefix: string;
  if (c === SLASH) {
    const c2 = href.charCodeAt(1);
    if (c2 === SLASH || c2 === BACKSLASH) return undefined; // `//host`: another authority
    prefix = base.slice(0, base.indexOf('/', base.indexOf('//') + 2));
  } else {
    prefix = base.slice(0, base.lastIndexOf('/', query < 0 ? base.length : query) + 1);
  }
  const last = pathEnd(href, 0, c !== SLASH);
  return last < 0 ? undefined : prefix + href.slice(0, last);
}

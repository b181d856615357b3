/**
 * Where the last {@link bound} call found the parts of its URL: the scheme's `//` ends at
 * `afterScheme`, `host[:port]` runs from `authorityStart` to `authorityEnd` (where the path starts).
 * Kept here rather than returned, so that the readers below, called for every link, allocate nothing.
 */
let afterScheme = 0;
let authorityStart = 0;
let authorityEnd = 0;

/** Finds the bounds of a serialized http(s) URL's `host[:port]`, skipping any userinfo. */
function bound(url: string): void {
  afterScheme = url.indexOf('//') + 2;
  let end = url.indexOf('/', afterScheme);
  if (end < 0) end = url.length;
  // `@` and `/` are escaped inside userinfo, so the last `@` before the path ends it.
  const at = url.lastIndexOf('@', end);
  authorityStart = at >= afterScheme ? at + 1 : afterScheme;
  authorityEnd = end;
}

/**
 * The origin `scheme://host[:port]` of a normalized http(s) URL, read from the string without
 * parsing it: the key of the robots.txt cache (RFC 9309 applies per origin).
 *
 * @example
 * originOf('https://jo:pw@www.example.com:8443/a/b?c'); //=> 'https://www.example.com:8443'
 */
export function originOf(normalized: string): string {
  bound(normalized);
  return normalized.slice(0, afterScheme) + normalized.slice(authorityStart, authorityEnd);
}

/**
 * The `host[:port]` of a normalized http(s) URL (what `URL.host` gives; a default port is never
 * there), read from the string without parsing it: a key for per-host politeness and limits, and
 * the mirror folder name before SPEC §6 makes it `HOST+PORT`.
 *
 * @example
 * hostKey('http://127.0.0.1:8080/x'); //=> '127.0.0.1:8080'
 */
export function hostKey(normalized: string): string {
  bound(normalized);
  return normalized.slice(authorityStart, authorityEnd);
}

/**
 * The path of a normalized http(s) URL (what `URL.pathname` gives), read from the string without
 * parsing it.
 *
 * @example
 * pathnameOf('http://a.test:81/x/y?q=1'); //=> '/x/y'
 */
export function pathnameOf(normalized: string): string {
  bound(normalized);
  return pathFrom(normalized, authorityEnd);
}

/** The path that starts at `end`, up to the query. */
function pathFrom(normalized: string, end: number): string {
  const q = normalized.indexOf('?', end);
  return normalized.slice(end, q < 0 ? normalized.length : q) || '/';
}

/**
 * The parts of a normalized http(s) URL a scope compares (`hostname`, `origin`, `pathname`, as
 * `URL` gives them), sliced from the string: the scope check of every link costs no URL parse.
 *
 * @example
 * urlParts('http://[::1]:81/a?q'); //=> { hostname: '[::1]', origin: 'http://[::1]:81', pathname: '/a' }
 */
export function urlParts(normalized: string): { readonly hostname: string; readonly origin: string; readonly pathname: string } {
  // Bounds found once, and each part one slice where it can be: a scope checks every link this way.
  bound(normalized);
  const start = authorityStart, end = authorityEnd;
  const colon = normalized.lastIndexOf(':', end);
  const hostEnd = colon > start && colon > normalized.lastIndexOf(']', end) ? colon : end;
  return {
    hostname: normalized.slice(start, hostEnd),
    origin: start === afterScheme ? normalized.slice(0, end) : normalized.slice(0, afterScheme) + normalized.slice(start, end),
    pathname: pathFrom(normalized, end),
  };
}

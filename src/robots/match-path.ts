const encoder = new TextEncoder();

/**
 * The part of a URL that robots.txt rules match: path and query, fragment dropped, `/` when
 * empty. Takes an absolute URL (`http://host/p?q`), a scheme-relative one (`//host/p`) or a path
 * (`/p?q`; a bare `p` is read as `/p`). Escapes are brought to the canonical form that patterns
 * get too (see `canonicalEscapes`): `%7e` and `%7E` are `~`, other escapes upper-cased. Non-ASCII
 * is *not* encoded: the conformance vectors (non-ascii-paths#2.2) leave encoding to the caller,
 * and WHATWG `URL.href` is already encoded.
 *
 * @example
 * robotsPath('https://example.com/a/%7eb?x=%2f#top') //=> '/a/~b?x=%2F'
 * robotsPath('https://example.com') //=> '/'
 */
export function robotsPath(url: string): string {
  let end = url.indexOf('#');
  if (end < 0) end = url.length;
  let start = 0;
  if (url.startsWith('//')) start = authorityEnd(url, 2, end);
  else if (url.charCodeAt(0) !== 0x2f) {
    const scheme = url.indexOf('://');
    if (scheme >= 0 && scheme < end && !hasPathChar(url, 0, scheme)) start = authorityEnd(url, scheme + 3, end);
  }
  if (start === end) return '/';
  const path = url.charCodeAt(start) === 0x2f ? url.slice(start, end) : `/${url.slice(start, end)}`;
  return canonicalEscapes(path);
}

/**
 * Brings a rule's path pattern to the form `robotsPath` produces: non-ASCII characters become
 * UTF-8 percent-escapes (RFC 9309 §2.2.2) and existing escapes take the canonical form.
 *
 * @example
 * escapePattern('/foo/ツ/%e3/%7Ejoe') //=> '/foo/%E3%83%84/%E3/~joe'
 */
export function escapePattern(pattern: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern.charCodeAt(i) < 0x80) continue;
    let j = i + 1;
    while (j < pattern.length && pattern.charCodeAt(j) >= 0x80) j++;
    out += pattern.slice(from, i);
    for (const byte of encoder.encode(pattern.slice(i, j))) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    from = j;
    i = j - 1;
  }
  return canonicalEscapes(from === 0 ? pattern : out + pattern.slice(from));
}

function authorityEnd(url: string, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f) return i;
  }
  return end;
}

function hasPathChar(url: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f) return true;
  }
  return false;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/**
 * The octet of a well-formed escape at `i` when the canonical form writes it as a character: the
 * unreserved marks `-` `.` `_` `~` (RFC 9309 §2.2.2 compares escaped unreserved characters
 * unescaped, so `Disallow: /%7Ejoe/` stops `/~joe/` and the reverse). Escaped letters and digits
 * stay escapes: no encoder writes them, and the conformance vectors (non-ascii-paths#4.1, #4.2)
 * keep `%62%61%7A` apart from `baz`.
 */
function markAt(s: string, i: number): number | undefined {
  const a = s.charCodeAt(i + 1);
  const b = s.charCodeAt(i + 2);
  if (!isHex(a) || !isHex(b)) return undefined;
  const octet = hexValue(a) * 16 + hexValue(b);
  return octet === 0x2d || octet === 0x2e || octet === 0x5f || octet === 0x7e ? octet : undefined;
}

function needsChange(s: string, i: number): boolean {
  const a = s.charCodeAt(i + 1);
  const b = s.charCodeAt(i + 2);
  return isHex(a) && isHex(b) && (a >= 0x61 || b >= 0x61 || markAt(s, i) !== undefined);
}

/**
 * One canonical form for escapes, on both sides of a comparison: escaped marks unescaped, other
 * escapes upper-cased (`%7e` → `~`, `%2f` → `%2F`). Allocates only when an escape needs changing,
 * which WHATWG-serialized, normalized URLs rarely have.
 */
function canonicalEscapes(s: string): string {
  let i = s.indexOf('%');
  while (i >= 0 && !needsChange(s, i)) i = s.indexOf('%', i + 1);
  if (i < 0) return s;
  let out = s.slice(0, i);
  for (; i < s.length; i++) {
    if (s.charCodeAt(i) === 0x25 && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      const mark = markAt(s, i);
      out += mark === undefined ? s.slice(i, i + 3).toUpperCase() : String.fromCharCode(mark);
      i += 2;
    } else out += s[i];
  }
  return out;
}

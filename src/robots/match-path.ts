const encoder = new TextEncoder();

/**
 * The part of a URL that robots.txt rules match: path and query, fragment dropped, `/` when
 * empty. Takes an absolute URL (`http://host/p?q`), a scheme-relative one (`//host/p`) or a path
 * (`/p?q`; a bare `p` is read as `/p`). Percent-escapes are upper-cased (`%7e` → `%7E`, the same
 * octet); nothing else is changed: non-ASCII is *not* encoded and `%7E` is *not* decoded to `~`,
 * because the conformance vectors (non-ascii-paths#2.2, #4.1, #4.2) require exact octet
 * comparison and leave encoding to the caller. WHATWG `URL.href` is already encoded.
 *
 * @example
 * robotsPath('https://example.com/a/%7eb?x=1#top') //=> '/a/%7Eb?x=1'
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
  return upperEscapes(path);
}

/**
 * Brings a rule's path pattern to the form `robotsPath` produces: non-ASCII characters become
 * UTF-8 percent-escapes (RFC 9309 §2.2.2) and existing escapes are upper-cased.
 *
 * @example
 * escapePattern('/foo/ツ/%e3') //=> '/foo/%E3%83%84/%E3'
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
  return upperEscapes(from === 0 ? pattern : out + pattern.slice(from));
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

function isLowerHexEscape(s: string, i: number): boolean {
  const a = s.charCodeAt(i + 1);
  const b = s.charCodeAt(i + 2);
  return isHex(a) && isHex(b) && (a >= 0x61 || b >= 0x61);
}

// Allocates only when a lower-case escape is present, which WHATWG-serialized URLs rarely have.
function upperEscapes(s: string): string {
  let i = s.indexOf('%');
  while (i >= 0 && !isLowerHexEscape(s, i)) i = s.indexOf('%', i + 1);
  if (i < 0) return s;
  let out = s.slice(0, i);
  for (; i < s.length; i++) {
    if (s.charCodeAt(i) === 0x25 && isLowerHexEscape(s, i)) {
      out += s.slice(i, i + 3).toUpperCase();
      i += 2;
    } else out += s[i];
  }
  return out;
}

const HEX = '0123456789ABCDEF';

/** Value of one hex digit's char code, or -1 (also for NaN past the end of the string). */
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 65 && c <= 70) return c - 55; // A-F
  if (c >= 97 && c <= 102) return c - 87; // a-f
  return -1;
}

/** RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(b: number): boolean {
  return (
    (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b === 45 || b === 46 || b === 95 || b === 126
  );
}

/**
 * Normalizes the percent-escapes of a URL string as RFC 3986 §6.2.2.1-2 says: an escaped unreserved
 * character is decoded, every other escape gets uppercase hex digits. A `%` that starts no valid escape
 * is left alone, as the WHATWG parser leaves it (re-encoding it as `%25` would change what is requested).
 * Reserved characters (`%2F`, `%3F`, `%26`, `%25`, ...) stay escaped, so the URL's structure never changes.
 * Returns the input itself when nothing changes, so the common case allocates nothing.
 *
 * @example
 * normalizePercentEscapes('http://a/%7euser/%41b%2fc?q=%3d%e2');
 * //=> 'http://a/~user/Ab%2Fc?q=%3D%E2'
 */
export function normalizePercentEscapes(s: string): string {
  let i = s.indexOf('%');
  if (i < 0) return s;
  let out = '';
  let copied = 0;
  while (i >= 0) {
    const hi = s.charCodeAt(i + 1);
    const lo = s.charCodeAt(i + 2);
    const h = hexValue(hi);
    const l = h < 0 ? -1 : hexValue(lo);
    if (l < 0) {
      i = s.indexOf('%', i + 1);
      continue;
    }
    const b = h * 16 + l;
    if (isUnreserved(b)) {
      out += s.slice(copied, i) + String.fromCharCode(b);
      copied = i + 3;
    } else if (hi >= 97 || lo >= 97) {
      out += s.slice(copied, i) + '%' + HEX[h] + HEX[l];
      copied = i + 3;
    }
    i = s.indexOf('%', i + 3);
  }
  return copied === 0 ? s : out + s.slice(copied);
}

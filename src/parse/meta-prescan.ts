import { AttributeScanner, GT, isSpace, latin1, SLASH, spells } from './attribute-scanner.js';
import { resolveEncodingLabel } from './encoding-label.js';

/** How many bytes the HTML standard advises the prescan to look at. */
export const PRESCAN_LIMIT = 1024;

const LT = 0x3c, BANG = 0x21, QMARK = 0x3f, DASH = 0x2d;

const isLetter = (b: number | undefined): boolean =>
  b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));

const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean => prefix.every((b, i) => bytes[i] === b);
/** `<?x` in UTF-16, and `<?xml` in ASCII. */
const UTF16LE_XML = [LT, 0, QMARK, 0, 0x78, 0];
const UTF16BE_XML = [0, LT, 0, QMARK, 0, 0x78];
const XML_DECLARATION = [LT, QMARK, 0x78, 0x6d, 0x6c];

/**
 * A label found by the prescan. `x-user-defined` becomes `windows-1252` as the standard says
 * (Node cannot decode it, so it must be caught before `TextDecoder` sees it).
 */
const metaLabel = (label: string): string | undefined =>
  label.trim() === 'x-user-defined' ? 'windows-1252' : resolveEncodingLabel(label);

/** The HTML standard's "extracting a character encoding from a meta element" (`content`). */
function charsetFromMetaContent(content: string): string | undefined {
  let at = 0;
  for (;;) {
    at = content.indexOf('charset', at);
    if (at === -1) return undefined;
    at += 7;
    while (isSpace(content.charCodeAt(at))) at++;
    if (content[at] === '=') break;
  }
  at++;
  while (isSpace(content.charCodeAt(at))) at++;
  const first = content[at];
  if (first === '"' || first === "'") {
    const close = content.indexOf(first, at + 1);
    return close === -1 ? undefined : metaLabel(content.slice(at + 1, close));
  }
  let stop = at;
  while (stop < content.length && !isSpace(content.charCodeAt(stop)) && content[stop] !== ';') stop++;
  return stop === at ? undefined : metaLabel(content.slice(at, stop));
}

/** Steps 11-15 of the meta branch: what a `<meta>` declares, or `undefined` to keep scanning. */
function metaCharset(scan: AttributeScanner): string | undefined {
  let seen = 0; // bit 1: http-equiv, 2: content, 4: charset — a repeated attribute is ignored
  let gotPragma = false;
  let needPragma: boolean | undefined;
  let charset: string | null | undefined = null; // null: none yet; undefined: an unknown label
  while (scan.next()) {
    if (scan.nameIs('http-equiv') && !(seen & 1)) {
      seen |= 1;
      gotPragma = scan.value() === 'content-type';
    } else if (scan.nameIs('content') && !(seen & 2)) {
      seen |= 2;
      const found: string | undefined = charset === null ? charsetFromMetaContent(scan.value()) : undefined;
      if (found !== undefined) {
        charset = found;
        needPragma = true;
      }
    } else if (scan.nameIs('charset') && !(seen & 4)) {
      seen |= 4;
      charset = metaLabel(scan.value());
      needPragma = false;
    }
  }
  if (needPragma === undefined || (needPragma && !gotPragma) || !charset) return undefined;
  if (charset === 'utf-16le' || charset === 'utf-16be') return 'utf-8';
  return charset;
}

/**
 * The HTML standard's "prescan a byte stream to determine its encoding" over the first
 * `limit` bytes: a `<meta charset>` or `<meta http-equiv="Content-Type" content="...charset=">`
 * outside comments, then an XML declaration's `encoding`. Returns the encoding as
 * `TextDecoder.encoding` names it, or `undefined` when nothing usable is declared.
 * A declared UTF-16 becomes `utf-8` (the bytes were readable as ASCII, so they are not UTF-16),
 * and `x-user-defined` becomes `windows-1252`, as the standard says.
 *
 * @example
 * prescanMeta(new TextEncoder().encode('<meta charset="ISO-8859-7">')) //=> 'iso-8859-7'
 * prescanMeta(new TextEncoder().encode('<!-- <meta charset=gbk> -->'))  //=> undefined
 */
export function prescanMeta(body: Uint8Array, limit = PRESCAN_LIMIT): string | undefined {
  // Every search below stays inside the window, however long the body.
  const bytes = body.subarray(0, limit);
  const end = bytes.length;
  if (startsWith(bytes, UTF16LE_XML)) return 'utf-16le';
  if (startsWith(bytes, UTF16BE_XML)) return 'utf-16be';
  const scan = new AttributeScanner(bytes);
  for (let p = 0; p < end; p++) {
    if (bytes[p] !== LT) continue;
    const b1 = bytes[p + 1];
    if (b1 === BANG && bytes[p + 2] === DASH && bytes[p + 3] === DASH) {
      // The `-->` may share its dashes with the `<!--`.
      let q = p + 2;
      while (q + 2 < end && !(bytes[q] === DASH && bytes[q + 1] === DASH && bytes[q + 2] === GT)) q++;
      if (q + 2 >= end) break;
      p = q + 2;
    } else if (p + 5 < end && spells(bytes, p + 1, p + 5, 'meta') && (isSpace(bytes[p + 5]) || bytes[p + 5] === SLASH)) {
      scan.pos = p + 5;
      const charset = metaCharset(scan);
      if (charset !== undefined) return charset;
      p = scan.pos;
    } else if (isLetter(b1) || (b1 === SLASH && isLetter(bytes[p + 2]))) {
      scan.pos = p + 1;
      while (scan.pos < end && !isSpace(bytes[scan.pos]) && bytes[scan.pos] !== GT) scan.pos++;
      while (scan.next());
      p = scan.pos;
    } else if (b1 === BANG || b1 === SLASH || b1 === QMARK) {
      const close = bytes.indexOf(GT, p + 2);
      if (close === -1) break;
      p = close;
    }
  }
  return xmlDeclarationEncoding(bytes);
}

/** The HTML standard's "get an XML encoding": `<?xml ... encoding="...">` at the very start. */
function xmlDeclarationEncoding(bytes: Uint8Array): string | undefined {
  if (!startsWith(bytes, XML_DECLARATION)) return undefined;
  const close = bytes.indexOf(GT);
  if (close === -1) return undefined;
  const decl = latin1(bytes, 0, close);
  let at = decl.indexOf('encoding');
  if (at === -1) return undefined;
  at += 8;
  while (decl.charCodeAt(at) <= 0x20) at++;
  if (decl[at] !== '=') return undefined;
  at++;
  while (decl.charCodeAt(at) <= 0x20) at++;
  const quote = decl[at];
  if (quote !== '"' && quote !== "'") return undefined;
  const stop = decl.indexOf(quote, at + 1);
  if (stop === -1) return undefined;
  const label = decl.slice(at + 1, stop);
  if (/[\x00-\x20]/.test(label)) return undefined;
  const encoding = resolveEncodingLabel(label);
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
}

import { parseContentType } from './content-type.js';

/** Short types of the index's TYPE column (SPEC §6), by MIME essence. */
const BY_MIME: ReadonlyMap<string, string> = new Map([
  ['text/html', 'html'], ['application/xhtml+xml', 'html'],
  ['text/plain', 'txt'], ['text/csv', 'csv'], ['text/markdown', 'md'], ['text/calendar', 'ics'],
  ['text/css', 'css'], ['text/javascript', 'js'], ['application/javascript', 'js'],
  ['application/x-javascript', 'js'], ['application/ecmascript', 'js'],
  ['text/xml', 'xml'], ['application/xml', 'xml'], ['application/json', 'json'],
  ['application/pdf', 'pdf'], ['application/postscript', 'ps'],
  ['application/rtf', 'rtf'], ['text/rtf', 'rtf'],
  ['application/msword', 'doc'], ['application/vnd.ms-excel', 'xls'], ['application/vnd.ms-powerpoint', 'ppt'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx'],
  ['application/vnd.oasis.opendocument.text', 'odt'], ['application/vnd.oasis.opendocument.spreadsheet', 'ods'],
  ['application/vnd.oasis.opendocument.presentation', 'odp'],
  ['image/png', 'png'], ['image/jpeg', 'jpg'], ['image/pjpeg', 'jpg'], ['image/gif', 'gif'], ['image/webp', 'webp'],
  ['image/svg+xml', 'svg'], ['image/bmp', 'bmp'], ['image/tiff', 'tif'], ['image/avif', 'avif'],
  ['image/x-icon', 'ico'], ['image/vnd.microsoft.icon', 'ico'],
  ['application/zip', 'zip'], ['application/gzip', 'gz'], ['application/x-gzip', 'gz'],
  ['application/x-tar', 'tar'], ['application/x-bzip2', 'bz2'], ['application/x-xz', 'xz'],
  ['application/x-7z-compressed', '7z'], ['application/vnd.rar', 'rar'], ['application/x-rar-compressed', 'rar'],
  ['application/wasm', 'wasm'], ['font/woff', 'woff'], ['font/woff2', 'woff2'], ['font/ttf', 'ttf'], ['font/otf', 'otf'],
  ['audio/mpeg', 'mp3'], ['audio/ogg', 'ogg'], ['audio/wav', 'wav'], ['video/mp4', 'mp4'], ['video/webm', 'webm'],
]);

/** Extensions spelled differently from their type; any other plausible extension is its own type. */
const EXTENSION_ALIASES: ReadonlyMap<string, string> = new Map([
  ['htm', 'html'], ['xhtml', 'html'], ['xht', 'html'], ['shtml', 'html'], ['jpeg', 'jpg'], ['jpe', 'jpg'],
  ['tiff', 'tif'], ['text', 'txt'], ['mjs', 'js'], ['tgz', 'gz'], ['markdown', 'md'],
]);
/** Server-side program extensions: they name the program, not what it answers with. */
const DYNAMIC_EXTENSIONS = new Set(['php', 'php3', 'php4', 'php5', 'phtml', 'asp', 'aspx', 'jsp', 'jspx', 'cgi', 'pl', 'py', 'cfm', 'do', 'action', 'nsf', 'dll', 'exe']);
const PLAUSIBLE_EXTENSION = /^[a-z0-9]{1,8}$/;

/** Types whose bytes are text, whatever the Content-Type said (for when it said nothing). */
const TEXTUAL_TYPES = new Set(['html', 'txt', 'csv', 'md', 'ics', 'css', 'js', 'xml', 'json', 'svg', 'rtf', 'ps']);

/**
 * The document's short type for the index (SPEC §6): from the Content-Type, else the URL's
 * extension, else the leading bytes, else `bin`. `application/octet-stream` and its kin tell
 * nothing and are skipped; so is an unknown `text/*`, whose fallback is `txt` rather than `bin`.
 * Any `+xml` type is `xml` (RSS, Atom, ...), any `+json` type `json`.
 *
 * @example
 * detectType('text/html; charset=utf-8', 'http://a.gr/x.pdf')        //=> 'html'
 * detectType(undefined, 'http://a.gr/paper.PDF?v=2')                 //=> 'pdf'
 * detectType('application/octet-stream', 'http://a.gr/get', pngBytes) //=> 'png'
 * detectType(undefined, 'http://a.gr/')                              //=> 'bin'
 */
export function detectType(contentType: string | undefined, url?: string, bytes?: Uint8Array): string {
  const { essence } = parseContentType(contentType);
  const fromMime = typeFromMime(essence);
  if (fromMime !== undefined) return fromMime;
  const fromUrl = url === undefined ? undefined : typeFromExtension(url);
  if (fromUrl !== undefined) return fromUrl;
  const sniffed = bytes === undefined ? undefined : sniffType(bytes);
  if (sniffed !== undefined) return sniffed;
  return essence.startsWith('text/') ? 'txt' : 'bin';
}

function typeFromMime(essence: string): string | undefined {
  const known = BY_MIME.get(essence);
  if (known !== undefined) return known;
  if (essence.endsWith('+xml')) return 'xml';
  if (essence.endsWith('+json')) return 'json';
  return undefined;
}

/**
 * The type named by the last path segment's extension of an absolute URL or a path.
 *
 * @example
 * typeFromExtension('https://a.gr/docs/Guide.HTM#top') //=> 'html'
 * typeFromExtension('https://a.gr/index.php?id=3')     //=> undefined
 */
export function typeFromExtension(url: string): string | undefined {
  let end = url.length;
  const query = url.indexOf('?');
  if (query !== -1) end = query;
  const hash = url.indexOf('#');
  if (hash !== -1 && hash < end) end = hash;
  const scheme = url.indexOf('://');
  const pathStart = scheme === -1 ? 0 : url.indexOf('/', scheme + 3);
  if (pathStart === -1 || pathStart >= end) return undefined;
  const slash = url.lastIndexOf('/', end - 1);
  const dot = url.lastIndexOf('.', end - 1);
  if (dot <= slash || dot < pathStart) return undefined;
  const extension = url.slice(dot + 1, end).toLowerCase();
  if (!PLAUSIBLE_EXTENSION.test(extension) || !/[a-z]/.test(extension) || DYNAMIC_EXTENSIONS.has(extension)) return undefined;
  return EXTENSION_ALIASES.get(extension) ?? extension;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean =>
  signature.every((b, i) => bytes[at + i] === b);
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

const SIGNATURES: ReadonlyArray<readonly [readonly number[], string, number?]> = [
  [ascii('%PDF-'), 'pdf'], [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'png'],
  [ascii('GIF87a'), 'gif'], [ascii('GIF89a'), 'gif'], [[0xff, 0xd8, 0xff], 'jpg'], [ascii('WEBP'), 'webp', 8],
  [ascii('PK\x03\x04'), 'zip'], [[0x1f, 0x8b, 0x08], 'gz'], [ascii('BZh'), 'bz2'], [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], '7z'], [ascii('Rar!\x1a\x07'), 'rar'], [ascii('%!PS-Adobe-'), 'ps'],
  [ascii('{\\rtf'), 'rtf'], [ascii('\0asm'), 'wasm'], [ascii('wOFF'), 'woff'], [ascii('wOF2'), 'woff2'],
  [ascii('OggS'), 'ogg'], [ascii('ID3'), 'mp3'], [ascii('ftyp'), 'mp4', 4],
];

/** WHATWG MIME Sniffing's HTML openers, matched case-insensitively and followed by a space or `>`. */
const HTML_OPENERS = ['<!doctype html', '<html', '<head', '<script', '<iframe', '<h1', '<div', '<font', '<table',
  '<a', '<style', '<title', '<b', '<body', '<br', '<p', '<!--'];

/**
 * The type the leading bytes show: file signatures, then HTML or XML after optional whitespace
 * and BOM, then `txt` for bytes with no binary control characters in the first 512.
 *
 * @example
 * sniffType(new TextEncoder().encode('  <!DOCTYPE html><html>')) //=> 'html'
 */
export function sniffType(bytes: Uint8Array): string | undefined {
  for (const [signature, type, at] of SIGNATURES) if (startsWith(bytes, signature, at)) return type;
  let p = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (p < bytes.length && (bytes[p] === 0x20 || (bytes[p]! >= 0x09 && bytes[p]! <= 0x0d))) p++;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + p, Math.min(bytes.length - p, 16)).toString('latin1').toLowerCase();
  for (const opener of HTML_OPENERS) {
    const after = head.charCodeAt(opener.length);
    if (head.startsWith(opener) && (after === 0x20 || after === 0x3e)) return 'html';
  }
  if (head.startsWith('<?xml')) return 'xml';
  if (bytes.length === 0) return undefined;
  const window = Math.min(bytes.length, 512);
  for (let i = 0; i < window; i++) {
    const b = bytes[i]!;
    // WHATWG MIME Sniffing's "binary data bytes".
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return undefined;
  }
  return 'txt';
}

/**
 * Whether a document is decoded as text (SPEC §6: text/*, xml, json): by its Content-Type, or by
 * its detected type when the Content-Type says nothing useful.
 *
 * @example
 * isTextual('xml', 'application/rss+xml') //=> true
 * isTextual('pdf', 'application/pdf')     //=> false
 * isTextual('html', undefined)            //=> true
 */
export function isTextual(type: string, contentType?: string): boolean {
  const { essence } = parseContentType(contentType);
  if (essence.startsWith('text/') || essence.endsWith('+xml') || essence.endsWith('/xml')
    || essence.endsWith('+json') || essence.endsWith('/json')) return true;
  return TEXTUAL_TYPES.has(type);
}

/** Whether a document of this type gets its title and links extracted. */
export const isHtml = (type: string): boolean => type === 'html';

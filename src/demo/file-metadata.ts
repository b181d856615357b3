import type { IncomingHttpHeaders } from 'node:http';
import { extname } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.txt': 'text/plain',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
};

/**
 * The Content-Type of a file name by its extension (case-insensitive), without a charset parameter
 * so that a page's own `<meta charset>` decides; `application/octet-stream` when the extension is unknown.
 *
 * @example
 * contentTypeOf('features.HTM') //=> 'text/html'
 * contentTypeOf('draft.tmp')    //=> 'application/octet-stream'
 */
export function contentTypeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The validators of a file: a strong ETag from its size and mtime, and Last-Modified as an IMF-fixdate.
 *
 * @example
 * validatorsOf({ size: 5, mtimeMs: 0 }) //=> { etag: '"5-0"', lastModified: 'Thu, 01 Jan 1970 00:00:00 GMT' }
 */
export function validatorsOf(file: { size: number; mtimeMs: number }): { etag: string; lastModified: string } {
  const ms = Math.floor(file.mtimeMs);
  return { etag: `"${file.size.toString(16)}-${ms.toString(16)}"`, lastModified: new Date(ms).toUTCString() };
}

/**
 * Whether a GET/HEAD may be answered 304, per RFC 9110 §13.2.2: If-None-Match (weak comparison,
 * `*` matches anything) decides when present; otherwise If-Modified-Since against Last-Modified,
 * to the second.
 *
 * @example
 * isNotModified({ 'if-none-match': 'W/"5-0", "x"' }, '"5-0"', undefined) //=> true
 */
export function isNotModified(
  req: IncomingHttpHeaders,
  etag: string | undefined,
  lastModified: string | undefined,
): boolean {
  const inm = req['if-none-match'];
  if (inm !== undefined) {
    if (etag === undefined) return false;
    const mine = etag.replace(/^W\//, '');
    return inm.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === mine;
    });
  }
  const ims = req['if-modified-since'];
  if (ims === undefined || lastModified === undefined) return false;
  const since = Date.parse(ims);
  const modified = Date.parse(lastModified);
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

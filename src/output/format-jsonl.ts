import { escapeControls } from './fields.js';
import type { IndexLink, IndexRecord } from '../model/index-record.js';

const link = (l: IndexLink): IndexLink => ({ url: l.url, text: l.text });

/**
 * One record as a line of JSON (SPEC §6), the fields in the SPEC's order, `null` where the seed
 * format has `-`; then `simhash` and `nearDuplicateOf` for HTML documents and `nextFetch` (SPEC §10)
 * when the record has them, `truncated` only when true, `sitemapLastmod` only when a sitemap gave one,
 * `renderedPath` only for a page rendered in a browser.
 * Control characters are escaped (`\u009b`, `\u202e`, ...), so that the line shows nothing raw at a
 * terminal, and U+2028/U+2029 too, because some line readers take them for line breaks ({@link escapeControls}).
 *
 * @example
 * formatJsonl(rec) //=> '{"md5":"e3b0…","url":"http://h/",…,"duplicateOf":null,"links":[{"url":"http://h/a","text":"About"}]}\n'
 * @see readIndex
 */
export function formatJsonl(rec: IndexRecord): string {
  // an object literal, not a replacer array: V8's fast path keeps it ~4x faster, and it fixes the order
  const out: Record<string, unknown> = {
    md5: rec.md5,
    url: rec.url,
    originalUrl: rec.originalUrl,
    title: rec.title,
    encoding: rec.encoding,
    type: rec.type,
    lastModified: rec.lastModified,
    serverDate: rec.serverDate,
    status: rec.status,
    etag: rec.etag,
    localPath: rec.localPath,
    contentLength: rec.contentLength,
    contentMd5: rec.contentMd5,
    depth: rec.depth,
    fetchedAt: rec.fetchedAt,
    durationMs: rec.durationMs,
    duplicateOf: rec.duplicateOf,
    links: rec.links.map(link),
  };
  if (rec.simhash != null) {
    out.simhash = rec.simhash;
    out.nearDuplicateOf = rec.nearDuplicateOf ?? null;
  }
  if (rec.nextFetch !== undefined) out.nextFetch = rec.nextFetch;
  if (rec.truncated === true) out.truncated = true;
  if (rec.sitemapLastmod !== undefined) out.sitemapLastmod = rec.sitemapLastmod;
  if (rec.renderedPath !== undefined) out.renderedPath = rec.renderedPath;
  return escapeControls(JSON.stringify(out)) + '\n';
}

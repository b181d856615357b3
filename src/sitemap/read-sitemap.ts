import type { SAXParser } from 'sax';
import { BodyReader } from '../fetch/read-body.js';

/** sitemaps.org: at most 50,000 URLs and 50 MiB (uncompressed) per file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

/** One `<url>` of a urlset (or one line of a text sitemap). */
export interface SitemapUrl {
  readonly loc: string;
  readonly lastmod?: string;
}

/** What one sitemap file lists. */
export interface SitemapContents {
  readonly urls: readonly SitemapUrl[];
  /** `<sitemap><loc>` of a sitemap index. */
  readonly sitemaps: readonly string[];
  /** Why the file was not read to its end, if it was not: a limit, or XML broken past repair. */
  readonly cut?: string;
}

/** The decoder reads this much at a time, so a file that reaches the URL limit early is not decoded further. */
const CHUNK = 64 * 1024;
const W3C_DATETIME = /^\d{4}(-\d\d(-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?)?)?)?$/;

/**
 * Reads a sitemap (sitemaps.org): a urlset, a sitemapindex, or a plain-text list of URLs, gzipped or
 * not (told by its magic bytes, since servers send `.xml.gz` files with any Content-Type), at most
 * 50 MiB decoded and 50,000 entries. The XML goes through sax in its lenient mode, which streams,
 * knows no DTD and so expands no entity (an entity bomb stays a few bytes of text), and carries on
 * after an error, so a broken or cut file still gives the entries before the break. Namespace
 * prefixes are ignored. The locations are returned as written; the caller resolves and filters them.
 *
 * @example
 * await readSitemap(Buffer.from('<urlset><url><loc>http://a.test/x</loc><lastmod>2026-01-02</lastmod></url></urlset>'))
 * //=> { urls: [{ loc: 'http://a.test/x', lastmod: '2026-01-02' }], sitemaps: [] }
 */
export async function readSitemap(body: Buffer): Promise<SitemapContents> {
  let bytes = body;
  let cut: string | undefined;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const reader = new BodyReader('gzip', { maxWire: 0, maxDecoded: SITEMAP_MAX_BYTES }, () => {});
    reader.push(bytes);
    reader.end();
    const decoded = await reader.result.catch((err: Error) => ({ body: Buffer.alloc(0), truncated: false, error: err.message }));
    if ('error' in decoded) return { urls: [], sitemaps: [], cut: decoded.error };
    bytes = decoded.body;
    if (decoded.truncated) cut = `more than ${SITEMAP_MAX_BYTES} bytes decoded`;
  } else if (bytes.length > SITEMAP_MAX_BYTES) {
    bytes = bytes.subarray(0, SITEMAP_MAX_BYTES);
    cut = `more than ${SITEMAP_MAX_BYTES} bytes`;
  }
  // A line cut at the limit would be a URL cut short.
  if (cut !== undefined) bytes = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  const first = bytes.findIndex((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
  // sax is loaded by the first XML sitemap: most crawls read none.
  const read = first >= 0 && bytes[first] === 0x3c /* < */ ? readXml(bytes, (await import('sax')).default.parser(false, { lowercase: true, trim: false })) : readText(bytes);
  return read.cut !== undefined || cut === undefined ? read : { ...read, cut };
}

/** A text sitemap: one absolute URL per line (sitemaps.org §"Text file"); other lines are skipped. */
function readText(bytes: Buffer): SitemapContents {
  const urls: SitemapUrl[] = [];
  for (const line of bytes.toString('utf8').split(/\r?\n|\r/)) {
    const loc = line.trim();
    if (!/^https?:\/\//i.test(loc)) continue;
    if (urls.length === SITEMAP_MAX_URLS) return { urls, sitemaps: [], cut: `more than ${SITEMAP_MAX_URLS} URLs` };
    urls.push({ loc });
  }
  return { urls, sitemaps: [] };
}

function readXml(bytes: Buffer, parser: SAXParser): SitemapContents {
  const urls: SitemapUrl[] = [];
  const sitemaps: string[] = [];
  let entry: { loc?: string; lastmod?: string } | undefined;
  let text = '';
  let cut: string | undefined;
  parser.onopentag = (tag) => {
    const name = localName(tag.name);
    if (name === 'url' || name === 'sitemap') entry = {};
    text = '';
  };
  parser.ontext = (t) => (text += t);
  parser.oncdata = (t) => (text += t);
  parser.onclosetag = (tagName) => {
    const name = localName(tagName);
    if (entry !== undefined && (name === 'loc' || name === 'lastmod')) entry[name] = text.trim();
    else if (entry !== undefined && (name === 'url' || name === 'sitemap')) {
      const loc = entry.loc;
      const lastmod = entry.lastmod;
      entry = undefined;
      if (!loc) return;
      if (urls.length + sitemaps.length === SITEMAP_MAX_URLS) {
        cut = `more than ${SITEMAP_MAX_URLS} URLs`;
        return;
      }
      if (name === 'sitemap') sitemaps.push(loc);
      else urls.push(lastmod !== undefined && W3C_DATETIME.test(lastmod) ? { loc, lastmod } : { loc });
    }
    text = '';
  };
  parser.onerror = () => {
    // Carry on past the error: entries before and after a broken spot are still worth having.
    parser.error = null as unknown as Error;
    parser.resume();
  };
  const decoder = new TextDecoder('utf-8');
  for (let at = 0; at < bytes.length && cut === undefined; at += CHUNK) parser.write(decoder.decode(bytes.subarray(at, at + CHUNK), { stream: true }));
  if (cut === undefined) parser.write(decoder.decode()).close();
  return cut === undefined ? { urls, sitemaps } : { urls, sitemaps, cut };
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

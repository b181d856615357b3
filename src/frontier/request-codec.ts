import type { CrawlRequest } from '../model/crawl-request.js';
import type { Writable } from '../model/writable.js';
import type { RequestCodec } from './back-queue.js';

/** Marks an original URL equal to the URL itself (a seed, an absolute link): stored once. */
const SAME = 0xffffffff;

/**
 * A {@link CrawlRequest} as bytes: depth (u16), redirects, attempt, flags (again, requeued, sitemap
 * and its level in two bits, lastmod, priority level) (u8 each), the URL (ASCII:
 * the WHATWG serializer percent-encodes everything else, and hosts are punycode) and the original
 * URL as written (UTF-8), each after its u32 length, then a sitemap lastmod (ASCII, u8 length) when
 * the flags say so, then the priority level (u8) when above 1 (no level reads as 1, the lowest). The host is the queue's own name.
 *
 * @example
 * hostFrontier({ order: 'bfs', politeness, codec: crawlRequestCodec })
 */
export const crawlRequestCodec: RequestCodec<CrawlRequest> = {
  maxSize(req) {
    return 5 + 8 + req.url.length + (req.originalUrl === req.url ? 0 : 3 * req.originalUrl.length) + (req.sitemapLastmod === undefined ? 0 : 1 + req.sitemapLastmod.length) + 1;
  },
  encode(req, buf, at) {
    buf.writeUInt16LE(Math.min(req.depth, 0xffff), at);
    buf[at + 2] = Math.min(req.redirects, 255);
    buf[at + 3] = Math.min(req.attempt, 255);
    const sitemap = req.sitemap === undefined ? 0 : 4 | (Math.min(req.sitemap, 3) << 3);
    buf[at + 4] = (req.again ? 1 : 0) | (req.requeued ? 2 : 0) | sitemap | (req.sitemapLastmod === undefined ? 0 : 32) | ((req.level ?? 1) > 1 ? 64 : 0);
    at += 5;
    const urlLength = buf.write(req.url, at + 4, 'latin1');
    buf.writeUInt32LE(urlLength, at);
    at += 4 + urlLength;
    if (req.originalUrl === req.url) buf.writeUInt32LE(SAME, at);
    else buf.writeUInt32LE(buf.write(req.originalUrl, at + 4, 'utf8'), at);
    at += 4 + (req.originalUrl === req.url ? 0 : buf.readUInt32LE(at));
    if (req.sitemapLastmod !== undefined) {
      buf[at] = buf.write(req.sitemapLastmod.slice(0, 255), at + 1, 'latin1');
      at += 1 + buf[at]!;
    }
    if ((req.level ?? 1) <= 1) return at;
    buf[at] = Math.min(req.level!, 255);
    return at + 1;
  },
  decode(buf, start, _end, host) {
    const depth = buf.readUInt16LE(start);
    const redirects = buf[start + 2]!;
    const attempt = buf[start + 3]!;
    const flags = buf[start + 4]!;
    let at = start + 5;
    const urlLength = buf.readUInt32LE(at);
    const url = buf.toString('latin1', at + 4, (at += 4 + urlLength));
    const originalLength = buf.readUInt32LE(at);
    const originalUrl = originalLength === SAME ? url : buf.toString('utf8', at + 4, at + 4 + originalLength);
    at += 4 + (originalLength === SAME ? 0 : originalLength);
    const lastmodEnd = flags & 32 ? at + 1 + buf[at]! : at;
    const req: Writable<CrawlRequest> = { url, host, depth, originalUrl, redirects, attempt };
    if (flags & 1) req.again = true;
    if (flags & 2) req.requeued = true;
    if (flags & 4) req.sitemap = (flags >> 3) & 3;
    if (flags & 32) req.sitemapLastmod = buf.toString('latin1', at + 1, lastmodEnd);
    if (flags & 64) req.level = buf[lastmodEnd]!;
    return req;
  },
};

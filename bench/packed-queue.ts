/**
 * A sketch, measured by bench/memory.ts, of a per-host back queue that keeps pending requests as
 * bytes instead of objects and strings: what a frontier could hold to stay under 200 bytes per
 * pending URL. Not used by the crawler.
 *
 * One growable byte arena per host, a record per request:
 *   u32 seq · u8 depth · u8 redirects · u8 attempt · u16 url length · u16 original length
 *   (0xffff: same as the URL) · 16 bytes of MD5 · URL (ASCII once normalized) · original (UTF-8)
 * The host is the queue's own name, and the key is the MD5 in raw bytes (hex again on the way out).
 */
import type { CrawlRequest } from '../src/frontier/crawl-request.js';

const HEADER = 4 + 3 + 2 + 2 + 16;
const SAME = 0xffff;

export class PackedQueue {
  private buf = Buffer.allocUnsafeSlow(256);
  private head = 0;
  private tail = 0;
  size = 0;

  constructor(readonly host: string) {}

  push(req: CrawlRequest, seq: number): void {
    const same = req.originalUrl === req.url;
    const urlLen = req.url.length; // normalized URLs are ASCII: percent-escaped by the normalizer
    const origLen = same ? 0 : Buffer.byteLength(req.originalUrl);
    this.reserve(HEADER + urlLen + origLen);
    const b = this.buf;
    let at = this.tail;
    at = b.writeUInt32LE(seq, at);
    b[at++] = req.depth;
    b[at++] = req.redirects;
    b[at++] = req.attempt;
    at = b.writeUInt16LE(urlLen, at);
    at = b.writeUInt16LE(same ? SAME : origLen, at);
    at += b.write(req.key, at, 16, 'hex');
    at += b.write(req.url, at, urlLen, 'latin1');
    if (!same) at += b.write(req.originalUrl, at, origLen, 'utf8');
    this.tail = at;
    this.size++;
  }

  shift(): { req: CrawlRequest; seq: number } | undefined {
    if (this.size === 0) return undefined;
    const b = this.buf;
    let at = this.head;
    const seq = b.readUInt32LE(at);
    const depth = b[at + 4]!;
    const redirects = b[at + 5]!;
    const attempt = b[at + 6]!;
    const urlLen = b.readUInt16LE(at + 7);
    const origLen = b.readUInt16LE(at + 9);
    const key = b.toString('hex', at + 11, at + 27);
    at += HEADER;
    const url = b.toString('latin1', at, (at += urlLen));
    const originalUrl = origLen === SAME ? url : b.toString('utf8', at, (at += origLen));
    this.head = at;
    if (--this.size === 0) this.head = this.tail = 0;
    return { req: { url, key, host: this.host, depth, originalUrl, redirects, attempt }, seq };
  }

  /** Makes room for `bytes` more: slides the live records down, or doubles the arena. */
  private reserve(bytes: number): void {
    if (this.tail + bytes <= this.buf.length) return;
    const live = this.tail - this.head;
    const next = live + bytes <= this.buf.length / 2 ? this.buf : Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, live + bytes));
    this.buf.copy(next, 0, this.head, this.tail);
    this.buf = next;
    this.head = 0;
    this.tail = live;
  }
}

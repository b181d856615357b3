import { createHash, randomUUID } from 'node:crypto';
import base32Encode from 'base32-encode';
import { WARCRecord, WARC_1_1 } from 'warcio';
import type { WireExchange } from '../model/fetch-response.js';
import { warcDate } from './warc-date.js';

/** WARC 1.1 §6.7's revisit profiles (warcio writes the first by itself). */
export const IDENTICAL_PAYLOAD = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
export const SERVER_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/**
 * `sha1:` and the base32 of the SHA-1 of `parts`, as Heritrix, wget and pywb write digests. Computed
 * with node:crypto and set on warcio's records: warcio's serializer hashes on a WASM SHA-1 it
 * instantiates per record (about 0.5 ms each, measured), more than the rest of a record's work.
 *
 * @example
 * sha1Digest(Buffer.from('')) //=> 'sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ'
 */
export function sha1Digest(...parts: readonly (Uint8Array | string)[]): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return `sha1:${base32Encode(hash.digest(), 'RFC4648')}`;
}

const EMPTY_DIGEST = sha1Digest('');

/** One fetch as the archive sees it. */
export interface Capture {
  readonly url: string;
  /** The URL's `host` (name and port), for the request's Host header. */
  readonly host: string;
  readonly status: number;
  /** The WARC-Date of the fetch's start. */
  readonly date: string;
  /** Why the body is not whole (WARC 1.1 §5.13), or false. */
  readonly truncated: false | 'length' | 'disconnect' | 'time';
  readonly wire: WireExchange;
  /** The peer address of the connection, when known. */
  readonly ip: string | undefined;
}

/** What a revisit record points back to. */
export interface Original {
  readonly url: string;
  readonly date: string;
}

/** The response is not what it is archived as: a revisit of `original` in `profile`. */
export interface Revisit {
  readonly profile: typeof IDENTICAL_PAYLOAD | typeof SERVER_NOT_MODIFIED;
  readonly original: Original | undefined;
}

/** A record and its block as it goes into the WARC: the HTTP head, then the payload (none for a revisit). */
export interface RecordBlock {
  readonly record: WARCRecord;
  readonly block: readonly Uint8Array[];
}

/**
 * The request record and the response (or revisit) record of one fetch, linked both ways by
 * WARC-Concurrent-To: the request as sent, the response's status line and headers as received and
 * its body as it came off the wire (still gzip if it came gzip). A Transfer-Encoding header is left
 * out, because undici has already undone the chunking and the block holds the plain body. Each
 * record carries its digests and Content-Length, so that its header block is final.
 *
 * @example
 * const [request, response] = exchangeRecords(capture, payloadDigest);
 */
export function exchangeRecords(c: Capture, payloadDigest: string, revisit?: Revisit): [RecordBlock, RecordBlock] {
  const { date, host } = c;
  const requestId = `<urn:uuid:${randomUUID()}>`;
  const responseId = `<urn:uuid:${randomUUID()}>`;
  const ip: Record<string, string> = c.ip !== undefined ? { 'WARC-IP-Address': c.ip } : {};
  const request = WARCRecord.create({
    url: c.url, date, type: 'request', warcVersion: WARC_1_1,
    statusline: `GET ${c.wire.target} HTTP/1.1`,
    httpHeaders: [['Host', host], ...c.wire.requestHeaders] as [string, string][],
    warcHeaders: { 'WARC-Record-ID': requestId, 'WARC-Concurrent-To': responseId, ...ip },
  });
  const headers = c.wire.headers.filter(([name]) => name.toLowerCase() !== 'transfer-encoding') as [string, string][];
  const statusline = `HTTP/1.1 ${c.status}${c.wire.statusText ? ` ${c.wire.statusText}` : ''}`;
  const warcHeaders: Record<string, string> = { 'WARC-Record-ID': responseId, 'WARC-Concurrent-To': requestId, ...ip };
  const response = WARCRecord.create({
    url: c.url, date, type: revisit ? 'revisit' : 'response', warcVersion: WARC_1_1, statusline, httpHeaders: headers, warcHeaders,
    ...(revisit?.original ? { refersToUrl: revisit.original.url, refersToDate: revisit.original.date } : {}),
  });
  // A request has no payload; its digest is the empty one's, as warcio's serializer writes it.
  request.warcHeaders.headers.set('WARC-Payload-Digest', EMPTY_DIGEST);
  const h = response.warcHeaders.headers;
  if (revisit) h.set('WARC-Profile', revisit.profile);
  if (revisit?.profile !== SERVER_NOT_MODIFIED) h.set('WARC-Payload-Digest', payloadDigest);
  if (!revisit && c.truncated) h.set('WARC-Truncated', c.truncated);
  return [withBlock(request), withBlock(response, revisit ? undefined : c.wire.body)];
}

/**
 * The conversion record of a page rendered in a browser (WARC 1.1 §6.8): the DOM its scripts built,
 * as HTML, referring to the response record of the page as fetched. It has no HTTP head: its block
 * is its payload.
 *
 * @example
 * conversionRecord('http://a.test/', warcDate(Date.now()), '<urn:uuid:…>', Buffer.from('<html>…</html>'))
 */
export function conversionRecord(url: string, date: string, refersTo: string, dom: Uint8Array): RecordBlock {
  const record = WARCRecord.create({ url, date, type: 'conversion', warcVersion: WARC_1_1, warcHeaders: { 'WARC-Record-ID': `<urn:uuid:${randomUUID()}>` } });
  const h = record.warcHeaders.headers;
  h.set('WARC-Refers-To', refersTo);
  h.set('Content-Type', CONVERSION_TYPE);
  const digest = sha1Digest(dom);
  h.set('WARC-Payload-Digest', digest);
  h.set('WARC-Block-Digest', digest);
  h.set('Content-Length', String(dom.length));
  return { record, block: [dom] };
}

/** A rendered DOM's media type: the browser serializes it as HTML. */
export const CONVERSION_TYPE = 'text/html';

/**
 * The warcinfo record at the head of each file: what wrote it and how (WARC 1.1 §6.4), its block
 * the fields as `name: value` lines.
 *
 * @example
 * warcinfoRecord('crawl-00000.warc.gz', { software: 'tarantula/0.1.0' })
 */
export function warcinfoRecord(filename: string, fields: Readonly<Record<string, string>>): RecordBlock {
  const record = WARCRecord.create({ filename, type: 'warcinfo', warcVersion: WARC_1_1, date: warcDate(Date.now()) });
  const block = Buffer.from(Object.entries(fields).map(([name, value]) => `${name}: ${value}\r\n`).join(''));
  record.warcHeaders.headers.set('Content-Length', String(block.length));
  return { record, block: [block] };
}

/**
 * The record's block (its HTTP head as warcio formats it, then the payload), with the block digest
 * and Content-Length set last, where warcio's serializer would set them.
 */
function withBlock(record: WARCRecord, payload?: Buffer): RecordBlock {
  const head = headBytes(`${record.httpHeaders!.toString()}\r\n`);
  const block = payload ? [head, payload] : [head];
  const h = record.warcHeaders.headers;
  h.set('WARC-Block-Digest', sha1Digest(...block));
  h.set('Content-Length', String(head.length + (payload?.length ?? 0)));
  return { record, block };
}

/**
 * An HTTP head as the bytes that crossed the wire. Header names and values are byte strings: undici
 * hands the received ones over as Latin-1 and sends ours so, and UTF-8 would turn each byte past
 * ASCII into two (a UTF-8 filename in Content-Disposition into mojibake). The status line is the one
 * string undici decodes as UTF-8, so it is encoded back that way.
 */
function headBytes(text: string): Buffer {
  const eol = text.indexOf('\r\n');
  const status = Buffer.byteLength(text.slice(0, eol));
  const head = Buffer.allocUnsafe(status + text.length - eol);
  head.write(text.slice(0, eol), 0, 'utf8');
  head.write(text.slice(eol), status, 'latin1');
  return head;
}

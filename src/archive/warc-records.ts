import { createHash, randomUUID } from 'node:crypto';
import base32Encode from 'base32-encode';
import { WARCRecord, WARC_1_1 } from 'warcio';
import type { WireExchange } from '../model/fetch-response.js';

/** WARC 1.1 §6.7's revisit profiles (warcio writes the first by itself). */
export const IDENTICAL_PAYLOAD = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
export const SERVER_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/**
 * `sha1:` and the base32 of the SHA-1 of `parts`, as Heritrix, wget and pywb write digests. Computed
 * here with node:crypto and passed to warcio: its own hashing instantiates a WASM SHA-1 per record
 * (about 0.5 ms each, measured), more than the rest of a record's work.
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

/** A WARC-Date: second precision, so that a CDXJ's 14-digit timestamp names it exactly (Refers-To-Date after a resume). */
export function warcDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** One fetch as the archive sees it. */
export interface Capture {
  readonly url: string;
  readonly status: number;
  readonly startedAt: number;
  readonly truncated: boolean;
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

/**
 * The request record and the response (or revisit) record of one fetch, linked both ways by
 * WARC-Concurrent-To: the request as sent, the response's status line and headers as received and
 * its body as it came off the wire (still gzip if it came gzip). A Transfer-Encoding header is left
 * out, because undici has already undone the chunking and the block holds the plain body.
 *
 * @example
 * const [request, response] = exchangeRecords(capture, payloadDigest);
 */
export function exchangeRecords(c: Capture, payloadDigest: string, revisit?: Revisit): [WARCRecord, WARCRecord] {
  const date = warcDate(c.startedAt);
  const requestId = `<urn:uuid:${randomUUID()}>`;
  const responseId = `<urn:uuid:${randomUUID()}>`;
  const ip: Record<string, string> = c.ip !== undefined ? { 'WARC-IP-Address': c.ip } : {};
  const host = new URL(c.url).host;
  const request = WARCRecord.create({
    url: c.url, date, type: 'request', warcVersion: WARC_1_1,
    statusline: `GET ${c.wire.target} HTTP/1.1`,
    httpHeaders: [['Host', host], ...c.wire.requestHeaders] as [string, string][],
    warcHeaders: { 'WARC-Record-ID': requestId, 'WARC-Concurrent-To': responseId, ...ip },
  });
  const headers = c.wire.headers.filter(([name]) => name.toLowerCase() !== 'transfer-encoding') as [string, string][];
  const statusline = `HTTP/1.1 ${c.status}${c.wire.statusText ? ` ${c.wire.statusText}` : ''}`;
  const warcHeaders: Record<string, string> = { 'WARC-Record-ID': responseId, 'WARC-Concurrent-To': requestId, ...ip };
  const response = WARCRecord.create(
    {
      url: c.url, date, type: revisit ? 'revisit' : 'response', warcVersion: WARC_1_1, statusline, httpHeaders: headers, warcHeaders,
      ...(revisit?.original ? { refersToUrl: revisit.original.url, refersToDate: revisit.original.date } : {}),
    },
    revisit ? [] : [c.wire.body],
  );
  // The empty payload's digest, which warcio would otherwise compute on a WASM hasher of its own.
  request.warcHeaders.headers.set('WARC-Payload-Digest', EMPTY_DIGEST);
  digest(request);
  const h = response.warcHeaders.headers;
  if (revisit) h.set('WARC-Profile', revisit.profile);
  if (revisit?.profile !== SERVER_NOT_MODIFIED) h.set('WARC-Payload-Digest', payloadDigest);
  if (!revisit && c.truncated) h.set('WARC-Truncated', 'length');
  digest(response, revisit ? undefined : c.wire.body);
  return [request, response];
}

/**
 * The warcinfo record at the head of each file: what wrote it and how (WARC 1.1 §6.4).
 *
 * @example
 * warcinfoRecord('crawl-00000.warc.gz', { software: 'tarantula/0.1.0' })
 */
export function warcinfoRecord(filename: string, fields: Readonly<Record<string, string>>): WARCRecord {
  return WARCRecord.createWARCInfo({ filename, warcVersion: WARC_1_1, date: warcDate(Date.now()) }, { ...fields });
}

/** Sets the block digest: the HTTP header block as warcio will write it, then the payload. */
function digest(record: WARCRecord, payload?: Buffer): void {
  const head = `${record.httpHeaders!.toString()}\r\n`;
  record.warcHeaders.headers.set('WARC-Block-Digest', payload ? sha1Digest(head, payload) : sha1Digest(head));
}

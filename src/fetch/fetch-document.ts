import { request, type Dispatcher } from 'undici';
import { readBody } from './read-body.js';
import { toFetchError } from './fetch-error.js';

export interface FetchOptions {
  readonly dispatcher: Dispatcher;
  readonly userAgent: string;
  readonly headerTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** Bytes on the wire; a longer body is cut there and marked truncated. 0 = no limit. */
  readonly maxBodySize: number;
  /** Bytes after Content-Encoding is undone. 0 = no limit. */
  readonly maxDecodedSize: number;
  readonly signal?: AbortSignal;
}

/** Conditional-request validators of a stored copy (recrawl). */
export interface Validators {
  readonly lastModified?: string | null;
  readonly etag?: string | null;
}

export interface FetchResponse {
  readonly status: number;
  /** Header names lowercase; repeated headers joined with ", " (set-cookie is not kept). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly truncated: boolean;
  readonly startedAt: number;
  readonly durationMs: number;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * One GET with the crawler's limits: header and idle-body timeouts, a cap on the bytes read and on
 * the bytes decoded, redirects not followed (they are new URLs for the filters). Never rejects with
 * anything but a {@link FetchError}.
 *
 * @example
 * const res = await fetchDocument('http://www.a.test/', opts);
 * res.status //=> 200
 */
export async function fetchDocument(url: string, opts: FetchOptions, validators?: Validators): Promise<FetchResponse> {
  const startedAt = Date.now();
  const headers: Record<string, string> = { 'user-agent': opts.userAgent, accept: ACCEPT, 'accept-encoding': 'gzip, deflate, br' };
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  try {
    const res = await request(url, {
      dispatcher: opts.dispatcher,
      method: 'GET',
      headers,
      headersTimeout: opts.headerTimeoutMs,
      bodyTimeout: opts.bodyTimeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const flat = flattenHeaders(res.headers);
    const limits = { maxWire: opts.maxBodySize, maxDecoded: opts.maxDecodedSize };
    const { body, truncated } = await readBody(res.body, flat['content-encoding'], limits);
    return {
      status: res.statusCode,
      headers: flat,
      body,
      truncated,
      startedAt,
      durationMs: Date.now() - startedAt,
    };
  } catch (err) {
    throw toFetchError(err);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || name === 'set-cookie') continue;
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

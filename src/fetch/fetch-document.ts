import type { Dispatcher } from 'undici';
import { parseHeaders, parseURL } from 'undici/lib/core/util.js';
import { BodyReader, type DecodedBody } from './read-body.js';
import { FetchError, toFetchError } from './fetch-error.js';
import type { FetchResponse, Validators, WireExchange } from '../model/fetch-response.js';
import type { HeaderObserver } from './cookie-dispatcher.js';

/** The limits and hooks of one {@link fetchDocument}. */
export interface FetchOptions {
  readonly dispatcher: Dispatcher;
  readonly userAgent: string;
  readonly headerTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** The whole download, from the request to the body's last byte: a body trickled in slowly enough never stalls. 0 or absent = no limit. */
  readonly downloadTimeoutMs?: number;
  /** Bytes on the wire; a longer body is cut there and marked truncated. 0 = no limit. */
  readonly maxBodySize: number;
  /** Bytes after Content-Encoding is undone. 0 = no limit. */
  readonly maxDecodedSize: number;
  /** Added to every request (`headers`, `--header`): [lowercase name, value]. */
  readonly headers?: readonly (readonly [string, string])[];
  readonly signal?: AbortSignal;
  /** Keep the exchange as it went over the wire ({@link FetchResponse.wire}), for an archive. */
  readonly capture?: boolean;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * One GET with the crawler's limits: header and idle-body timeouts, a deadline on the whole download, a cap on the bytes read and on
 * the bytes decoded, redirects not followed (they are new URLs for the filters). Never rejects with
 * anything but a {@link FetchError}.
 *
 * @example
 * const res = await fetchDocument('http://www.a.test/', opts);
 * res.status //=> 200
 */
export function fetchDocument(url: string, opts: FetchOptions, validators?: Validators): Promise<FetchResponse> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(toFetchError(opts.signal.reason));
    const headers: Record<string, string> = { 'user-agent': opts.userAgent, accept: ACCEPT, 'accept-encoding': 'gzip, deflate, br' };
    for (const [name, value] of opts.headers ?? []) headers[name] = value;
    if (validators?.etag) headers['if-none-match'] = validators.etag;
    if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
    const handler = new DocumentHandler(opts, resolve, reject);
    try {
      const { origin, pathname, search } = parseURL(url);
      if (opts.capture) handler.sent(pathname + search, headers);
      opts.dispatcher.dispatch(
        { origin, path: pathname + search, method: 'GET', headers, headersTimeout: opts.headerTimeoutMs, bodyTimeout: opts.bodyTimeoutMs },
        handler,
      );
    } catch (err) {
      handler.onError(err as Error);
    }
  });
}

/**
 * The callbacks undici's core calls for one fetchDocument. They are the ones it calls natively (a
 * handler with onRequestStart gets wrapped in an adapter), and the body goes from them straight to
 * a {@link BodyReader}: the request API's Readable and its async iteration took about 40% of the
 * CPU time of a small page's fetch.
 */
class DocumentHandler implements Dispatcher.DispatchHandler, HeaderObserver {
  private readonly startedAt = Date.now();
  private abort: ((err?: Error) => void) | undefined;
  private reader: BodyReader | undefined;
  private status = 0;
  private headers: Record<string, string> = {};
  private request: { target: string; headers: Record<string, string> } | undefined;
  private statusText = '';
  private rawHeaders: [string, string][] = [];
  /** undici has nothing more to tell: the exchange completed or failed, or we dropped it. */
  private over = false;
  private settled = false;
  private readonly deadline: NodeJS.Timeout | undefined;

  constructor(
    private readonly opts: FetchOptions,
    private readonly resolve: (res: FetchResponse) => void,
    private readonly reject: (err: FetchError) => void,
  ) {
    opts.signal?.addEventListener('abort', this.onAbort);
    const ms = opts.downloadTimeoutMs ?? 0;
    // Not retried: a server that could not finish in that long would hold the host's slot as long again.
    if (ms > 0) this.deadline = setTimeout(() => this.fail(new FetchError('download-timeout', `the download took longer than ${ms} ms`, 'give-up')), ms);
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    if (this.over) abort(); // the signal fired while the request waited for a connection
  }

  /** What was sent, kept for the archive (`capture`). */
  sent(target: string, headers: Record<string, string>): void {
    this.request = { target, headers };
  }

  /** A dispatcher below added a header to the request (the cookie jar's Cookie): the archive's request record shows it. */
  addedHeader(name: string, value: string): void {
    if (this.request) this.request = { ...this.request, headers: { ...this.request.headers, [name]: value } };
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText?: string): boolean {
    if (statusCode < 200) return true; // informational: the response is still to come
    this.status = statusCode;
    this.headers = flattenHeaders(parseHeaders(rawHeaders));
    if (this.request) {
      this.statusText = statusText ?? '';
      // Now: undici's header buffers are views of a read buffer it reuses.
      for (let i = 0; i + 1 < rawHeaders.length; i += 2) this.rawHeaders.push([rawHeaders[i]!.toString('latin1'), rawHeaders[i + 1]!.toString('latin1')]);
    }
    const limits = { maxWire: this.opts.maxBodySize, maxDecoded: this.opts.maxDecodedSize };
    this.reader = new BodyReader(this.headers['content-encoding'], limits, resume, this.request !== undefined);
    this.reader.result.then(this.succeed, this.fail);
    return true;
  }

  onData(chunk: Buffer): boolean {
    const reader = this.reader!;
    if (reader.push(chunk)) return true;
    if (reader.stopped) this.drop();
    return false;
  }

  onComplete(): void {
    this.over = true;
    this.reader!.end();
  }

  onError(err: Error): void {
    if (this.over) return; // the error of our own abort, or of a request already answered
    this.over = true;
    this.fail(err);
  }

  /** Stops the download: a cap was hit, the body is unreadable, or nobody wants it any more. */
  private drop(): void {
    if (this.over) return;
    this.over = true;
    this.abort?.();
  }

  private readonly succeed = ({ body, truncated, wire, undecodable }: DecodedBody): void => {
    if (this.settled) return;
    this.settle();
    const res = { status: this.status, headers: this.headers, body, truncated, startedAt: this.startedAt, durationMs: Date.now() - this.startedAt };
    if (undecodable) return this.reject(new FetchError(undecodable.code, undecodable.message, undecodable.action, { ...res, wire: this.exchange(wire!) }));
    this.resolve(this.request ? { ...res, wire: this.exchange(wire ?? body) } : res);
  };

  private exchange(body: Buffer): WireExchange {
    const { target, headers: sent } = this.request!;
    return { target, requestHeaders: Object.entries(sent), statusText: this.statusText, headers: this.rawHeaders, body };
  }

  private readonly fail = (err: unknown): void => {
    if (this.settled) return;
    this.settle();
    this.reader?.fail(err); // frees its decoder
    const error = toFetchError(err);
    // A body the server cut (a reset, a short Content-Length, a stall) is still an exchange an archive
    // keeps, with what came; one our own stop cut is not: the request stays pending and is fetched again.
    if (this.request === undefined || this.reader === undefined || this.opts.signal?.aborted) return this.reject(error);
    const wire = this.reader.received();
    const cut = {
      status: this.status, headers: this.headers, body: wire, truncated: true, cutBy: error.code === 'body-timeout' || error.code === 'download-timeout' ? ('time' as const) : ('disconnect' as const),
      startedAt: this.startedAt, durationMs: Date.now() - this.startedAt, wire: this.exchange(wire),
    };
    this.reject(new FetchError(error.code, error.message, error.action, cut));
  };

  private settle(): void {
    this.settled = true;
    clearTimeout(this.deadline);
    this.drop();
    this.opts.signal?.removeEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => this.fail(this.opts.signal!.reason);
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

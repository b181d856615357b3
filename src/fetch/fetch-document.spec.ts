import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable, type Transform } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from './create-dispatcher.js';
import { fetchDocument, type FetchOptions } from './fetch-document.js';
import { FetchError } from './fetch-error.js';

const PAGE = Buffer.from('<!DOCTYPE html><title>page</title>' + 'x'.repeat(100_000));
const NOISE = randomBytes(4 << 20);
const NOISE_GZIP = gzipSync(NOISE);

/**
 * Sends zeros through `through` (e.g. a gzip stream) for as long as the client reads; resolves with
 * how many it made once the client has gone.
 */
function flood(res: ServerResponse, ...through: Transform[]): Promise<number> {
  const zeros = Buffer.alloc(64 * 1024);
  let made = 0;
  const source = new Readable({
    read() {
      made += zeros.length;
      this.push(zeros);
    },
  });
  return new Promise((resolve) => pipeline([source, ...through, res], () => resolve(made)));
}

let requests = 0;
let lastHeaders: IncomingHttpHeaders = {};
/** The bytes the last flooding response made before its client went away. */
let flooded: Promise<number> = Promise.resolve(0);
let server: Server;
let dispatcher: Dispatcher;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    lastHeaders = req.headers;
    if (req.url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(PAGE));
    else if (req.url === '/gzip-noise') res.writeHead(200, { 'content-encoding': 'gzip' }).end(NOISE_GZIP);
    else if (req.url === '/not-gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(PAGE);
    else if (req.url === '/cookies') res.writeHead(200, [['set-cookie', 'a=1'], ['x-many', 'a'], ['x-many', 'b']]).end();
    else if (req.url === '/endless') flooded = flood(res.writeHead(200, { 'content-type': 'text/html' }));
    else if (req.url === '/bomb') flooded = flood(res.writeHead(200, { 'content-encoding': 'gzip' }), createGzip());
    else if (req.url === '/hints') {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    } else if (req.url === '/stall') res.writeHead(200, { 'content-type': 'text/html' }).write('<p>');
    else if (req.url === '/drip') {
      // A byte every 20 ms, for ever: never idle long enough for body-timeout.
      res.writeHead(200, { 'content-type': 'text/html' }).write('<p>');
      const drip = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(drip));
    }
    else if (req.url !== '/silent') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  dispatcher = createDispatcher({ resolve: [{ host: 'a.test', port, address: '127.0.0.1' }], connectTimeoutMs: 1000, connectionsPerOrigin: 2 });
  base = `http://a.test:${port}`;
});
afterAll(async () => {
  await dispatcher.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const opts = (more: Partial<FetchOptions> = {}): FetchOptions => ({
  dispatcher, userAgent: 'tarantula/test', headerTimeoutMs: 1000, bodyTimeoutMs: 1000, maxBodySize: 0, maxDecodedSize: 0, ...more,
});

describe('fetchDocument', () => {
  it('sends the user agent, Accept-Encoding and the validators of a stored copy', async () => {
    const res = await fetchDocument(`${base}/?q=1#frag`, opts(), { etag: '"v1"', lastModified: 'Wed, 21 Oct 2015 07:28:00 GMT' });
    expect(res).toMatchObject({ status: 200, truncated: false, headers: { 'content-type': 'text/html' } });
    expect(res.body.equals(PAGE)).toBe(true);
    expect(lastHeaders).toMatchObject({ 'user-agent': 'tarantula/test', 'accept-encoding': 'gzip, deflate, br', 'if-none-match': '"v1"', 'if-modified-since': 'Wed, 21 Oct 2015 07:28:00 GMT' });
  });

  it('cuts the body at max-body-size and says so', async () => {
    const res = await fetchDocument(`${base}/`, opts({ maxBodySize: 1000 }));
    expect(res.truncated).toBe(true);
    expect(res.body.equals(PAGE.subarray(0, 1000))).toBe(true);
  });

  it('stops downloading at max-body-size: a body that never ends comes back cut', async () => {
    const res = await fetchDocument(`${base}/endless`, opts({ maxBodySize: 1000 }));
    expect(res).toMatchObject({ status: 200, truncated: true });
    expect(res.body.equals(Buffer.alloc(1000))).toBe(true);
    expect(await flooded).toBeLessThan(16 << 20);
  });

  it('decodes gzip, capped at max-decoded-size', async () => {
    expect((await fetchDocument(`${base}/gzip`, opts())).body.equals(PAGE)).toBe(true);
    const capped = await fetchDocument(`${base}/gzip`, opts({ maxDecodedSize: 5000 }));
    expect(capped.truncated).toBe(true);
    expect(capped.body.equals(PAGE.subarray(0, 5000))).toBe(true);
  });

  it('decodes a gzip body that comes faster than it inflates', async () => {
    const res = await fetchDocument(`${base}/gzip-noise`, opts());
    expect(res.truncated).toBe(false);
    expect(res.body.equals(NOISE)).toBe(true);
  });

  it('stops downloading a gzip bomb at max-decoded-size', async () => {
    const res = await fetchDocument(`${base}/bomb`, opts({ maxDecodedSize: 1 << 20 }));
    expect(res.truncated).toBe(true);
    expect(res.body.equals(Buffer.alloc(1 << 20))).toBe(true);
    expect(await flooded).toBeLessThan(16 << 20);
  });

  it('fails with bad-encoding when the body is not what Content-Encoding says', async () => {
    const err = await fetchDocument(`${base}/not-gzip`, opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect(err).toMatchObject({ code: 'bad-encoding', action: 'give-up' });
  });

  it('joins repeated headers and leaves out set-cookie', async () => {
    const res = await fetchDocument(`${base}/cookies`, opts());
    expect(res.headers['x-many']).toBe('a, b');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers with the response that follows 103 Early Hints', async () => {
    const res = await fetchDocument(`${base}/hints`, opts());
    expect(res).toMatchObject({ status: 200, headers: { 'content-type': 'text/html' } });
    expect(res.body.equals(PAGE)).toBe(true);
  });

  it('rejects at once, asking nothing, when its signal was aborted already', async () => {
    const before = requests;
    await expect(fetchDocument(`${base}/`, opts({ signal: AbortSignal.abort() }))).rejects.toMatchObject({ code: 'aborted', action: 'give-up' });
    expect(requests).toBe(before);
  });

  it('stops when its signal is aborted, waiting for headers or reading the body', async () => {
    for (const path of ['/silent', '/endless']) {
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 100);
      const started = Date.now();
      await expect(fetchDocument(`${base}${path}`, opts({ signal: stop.signal }))).rejects.toMatchObject({ code: 'aborted', action: 'give-up' });
      expect(Date.now() - started).toBeLessThan(900);
    }
    await expect(flooded).resolves.toBeGreaterThan(0); // the server has seen the connection go
  });

  it('fails with header-timeout when no response comes, and body-timeout when the body stalls', async () => {
    await expect(fetchDocument(`${base}/silent`, opts({ headerTimeoutMs: 100 }))).rejects.toMatchObject({ code: 'header-timeout', action: 'retry' });
    await expect(fetchDocument(`${base}/stall`, opts({ bodyTimeoutMs: 100 }))).rejects.toMatchObject({ code: 'body-timeout', action: 'retry' });
  });

  it('fails with download-timeout, not retried, when the whole download takes longer, however steadily the body comes', async () => {
    await expect(fetchDocument(`${base}/drip`, opts({ downloadTimeoutMs: 300 }))).rejects.toMatchObject({ code: 'download-timeout', action: 'give-up' });
    await expect(fetchDocument(`${base}/silent`, opts({ downloadTimeoutMs: 100 }))).rejects.toMatchObject({ code: 'download-timeout' });
    const cut = (await fetchDocument(`${base}/drip`, opts({ downloadTimeoutMs: 300, capture: true })).catch((e: unknown) => e)) as FetchError;
    expect(cut).toMatchObject({ code: 'download-timeout', response: { status: 200, truncated: true, cutBy: 'time' } });
    expect(cut.response!.wire!.body.toString()).toMatch(/^<p>x*$/);
    await expect(fetchDocument(`${base}/`, opts({ downloadTimeoutMs: 5000 }))).resolves.toMatchObject({ status: 200 });
  });

  it('with capture, gives the failure the response the server cut, as far as it came; never one its own stop cut', async () => {
    const stalled = (await fetchDocument(`${base}/stall`, opts({ bodyTimeoutMs: 100, capture: true })).catch((e: unknown) => e)) as FetchError;
    expect(stalled).toMatchObject({ code: 'body-timeout', response: { status: 200, truncated: true, cutBy: 'time' } });
    expect(stalled.response!.wire!.body.toString()).toBe('<p>');
    expect(stalled.response!.wire!.headers).toContainEqual(['content-type', 'text/html']);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const stopped = (await fetchDocument(`${base}/stall`, opts({ signal: stop.signal, capture: true })).catch((e: unknown) => e)) as FetchError;
    expect(stopped).toMatchObject({ code: 'aborted' });
    expect(stopped.response).toBeUndefined();
  });

  it('fails with bad-request for a URL that is not http or https', async () => {
    await expect(fetchDocument('ftp://a.test/', opts())).rejects.toMatchObject({ code: 'bad-request', action: 'give-up' });
  });

  it('fails with a named FetchError when nothing listens', async () => {
    const closed = createDispatcher({ resolve: [{ host: 'b.test', port: 9, address: '127.0.0.1' }], connectTimeoutMs: 500, connectionsPerOrigin: 1 });
    await expect(fetchDocument('http://b.test:9/', opts({ dispatcher: closed }))).rejects.toMatchObject({ code: 'refused', action: 'retry' });
    await closed.close();
  });
});

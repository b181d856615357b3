import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from './create-dispatcher.js';
import { fetchDocument, type FetchOptions } from './fetch-document.js';
import { FetchError } from './fetch-error.js';

const PAGE = Buffer.from('<!DOCTYPE html><title>page</title>' + 'x'.repeat(100_000));
let lastHeaders: IncomingHttpHeaders = {};
let server: Server;
let dispatcher: Dispatcher;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    lastHeaders = req.headers;
    if (req.url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(PAGE));
    else if (req.url === '/not-gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(PAGE);
    else if (req.url === '/cookies') res.writeHead(200, [['set-cookie', 'a=1'], ['x-many', 'a'], ['x-many', 'b']]).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  dispatcher = createDispatcher({ resolve: [{ host: 'a.test', port, address: '127.0.0.1' }], connectTimeoutMs: 1000, connectionsPerOrigin: 2 });
  base = `http://a.test:${port}`;
});
afterAll(async () => {
  await dispatcher.close();
  await new Promise((resolve) => server.close(resolve));
});

const opts = (more: Partial<FetchOptions> = {}): FetchOptions => ({
  dispatcher, userAgent: 'tarantula/test', headerTimeoutMs: 1000, bodyTimeoutMs: 1000, maxBodySize: 0, maxDecodedSize: 0, ...more,
});

describe('fetchDocument', () => {
  it('sends the user agent, Accept-Encoding and the validators of a stored copy', async () => {
    const res = await fetchDocument(`${base}/`, opts(), { etag: '"v1"', lastModified: 'Wed, 21 Oct 2015 07:28:00 GMT' });
    expect(res).toMatchObject({ status: 200, truncated: false, headers: { 'content-type': 'text/html' } });
    expect(res.body.equals(PAGE)).toBe(true);
    expect(lastHeaders).toMatchObject({ 'user-agent': 'tarantula/test', 'accept-encoding': 'gzip, deflate, br', 'if-none-match': '"v1"', 'if-modified-since': 'Wed, 21 Oct 2015 07:28:00 GMT' });
  });

  it('cuts the body at max-body-size and says so', async () => {
    const res = await fetchDocument(`${base}/`, opts({ maxBodySize: 1000 }));
    expect(res.truncated).toBe(true);
    expect(res.body.equals(PAGE.subarray(0, 1000))).toBe(true);
  });

  it('decodes gzip, capped at max-decoded-size', async () => {
    expect((await fetchDocument(`${base}/gzip`, opts())).body.equals(PAGE)).toBe(true);
    const capped = await fetchDocument(`${base}/gzip`, opts({ maxDecodedSize: 5000 }));
    expect(capped.truncated).toBe(true);
    expect(capped.body.equals(PAGE.subarray(0, 5000))).toBe(true);
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

  it('fails with a named FetchError when nothing listens', async () => {
    const closed = createDispatcher({ resolve: [{ host: 'b.test', port: 9, address: '127.0.0.1' }], connectTimeoutMs: 500, connectionsPerOrigin: 1 });
    await expect(fetchDocument('http://b.test:9/', opts({ dispatcher: closed }))).rejects.toMatchObject({ code: 'refused', action: 'retry' });
    await closed.close();
  });
});

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, of } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from 'undici';
import { createDispatcher } from '../fetch/create-dispatcher.js';
import type { CrawlRequest } from '../model/crawl-request.js';
import { Politeness } from '../frontier/politeness.js';
import { fetchPage } from './fetch-page.js';

/** Each path of the test server: status, headers, body; `reset` drops the connection instead. */
const ROUTES: Record<string, { status: number; headers?: Record<string, string>; body?: string } | 'reset' | 'silent'> = {
  '/ok': { status: 200, headers: { 'content-type': 'text/html' }, body: '<title>ok</title>' },
  '/moved': { status: 301, headers: { location: '/ok' } },
  '/no-location': { status: 302 },
  '/busy': { status: 503, headers: { 'retry-after': '2' } },
  '/much-later': { status: 503, headers: { 'retry-after': '3600' } },
  '/slow-down': { status: 429 },
  '/broken': { status: 500 },
  '/missing': { status: 404 },
  '/reset': 'reset',
  '/silent': 'silent',
};

let server: Server;
let port: number;
let dispatcher: Dispatcher;
beforeAll(async () => {
  server = createServer((req, res) => {
    const route = ROUTES[req.url ?? ''] ?? { status: 404 };
    if (route === 'reset') return req.socket.resetAndDestroy();
    if (route === 'silent') return;
    res.writeHead(route.status, route.headers).end(route.body ?? '');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  dispatcher = createDispatcher({ resolve: [{ host: 'a.test', port, address: '127.0.0.1' }], connectTimeoutMs: 1000, connectionsPerOrigin: 4 });
});
afterAll(async () => {
  await dispatcher.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const req = (path: string, more: Partial<CrawlRequest> = {}): CrawlRequest => ({
  url: `http://a.test:${port}${path}`, host: `a.test:${port}`, depth: 1, originalUrl: path, redirects: 0, attempt: 0, ...more,
});

function fetchOne(r: CrawlRequest) {
  const politeness = new Politeness({ delayFactor: 0, minDelayMs: 0, maxDelayMs: 0 });
  const stage = fetchPage({
    dispatcher, userAgent: 'tarantula/test', headerTimeoutMs: 300, bodyTimeoutMs: 300, maxBodySize: 0, maxDecodedSize: 0,
    politeness, maxRetries: 2, maxRedirects: 5,
  });
  return { politeness, out: firstValueFrom(of(r).pipe(stage)) };
}

describe('fetchPage', () => {
  it('passes a 2xx response on to parsing', async () => {
    const out = await fetchOne(req('/ok')).out;
    expect(out).toMatchObject({ kind: 'fetched', req: req('/ok'), response: { status: 200 } });
  });

  it('turns a redirect into a link one hop further, keeping depth and original URL', async () => {
    expect(await fetchOne(req('/moved', { redirects: 2 })).out).toMatchObject({
      kind: 'redirect', status: 301, location: '/ok',
      links: [{ href: '/ok', base: req('/moved').url, depth: 1, originalUrl: '/moved', redirects: 3 }],
    });
  });

  it('fails a redirect beyond max-redirects, and a redirect without a Location', async () => {
    expect(await fetchOne(req('/moved', { redirects: 5 })).out).toMatchObject({ kind: 'failed', code: 'too-many-redirects', status: 301 });
    expect(await fetchOne(req('/no-location')).out).toMatchObject({ kind: 'failed', code: 'http-302' });
  });

  it('retries a 503 after its Retry-After, by resting the host that long', async () => {
    const { out, politeness } = fetchOne(req('/busy'));
    expect(await out).toMatchObject({ kind: 'retry', code: 'http-503', retry: { attempt: 1 }, message: 'HTTP 503, Retry-After 2 s' });
    expect(politeness.delayMs(req('/').host)).toBe(2000);
  });

  it('retries a 429 without Retry-After after an exponential back-off', async () => {
    const { out, politeness } = fetchOne(req('/slow-down', { attempt: 1 }));
    expect(await out).toMatchObject({ kind: 'retry', code: 'http-429', retry: { attempt: 2 } });
    expect(politeness.delayMs(req('/').host)).toBeGreaterThanOrEqual(1000);
    expect(politeness.delayMs(req('/').host)).toBe(0); // the back-off is used once
  });

  it('gives up at once on a Retry-After longer than ten minutes', async () => {
    expect(await fetchOne(req('/much-later')).out).toMatchObject({ kind: 'failed', code: 'http-503', status: 503 });
  });

  it('gives up on a 5xx after max-retries, and at once on a 4xx', async () => {
    expect(await fetchOne(req('/broken', { attempt: 1 })).out).toMatchObject({ kind: 'retry' });
    expect(await fetchOne(req('/broken', { attempt: 2 })).out).toMatchObject({ kind: 'failed', code: 'http-500', status: 500 });
    expect(await fetchOne(req('/missing')).out).toMatchObject({ kind: 'failed', code: 'http-404', status: 404 });
  });

  it.each([
    ['/reset', 'reset'],
    ['/silent', 'header-timeout'],
  ])('retries a network failure (%s: %s), then gives up', async (path, code) => {
    expect(await fetchOne(req(path)).out).toMatchObject({ kind: 'retry', code, retry: { attempt: 1 } });
    expect(await fetchOne(req(path, { attempt: 2 })).out).toMatchObject({ kind: 'failed', code });
  });
});

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardProxy, type ForwardProxy } from '../../test/support/forward-proxy.js';
import { addressGuard } from './address-guard.js';
import { createDispatcher } from './create-dispatcher.js';
import { fetchDocument } from './fetch-document.js';
import { FetchError } from './fetch-error.js';
import { proxySettings } from './proxy-settings.js';

let site: Server;
let port: number;
let proxy: ForwardProxy;
beforeAll(async () => {
  site = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`via ${String(req.headers.via)}`)).listen(0, '127.0.0.1');
  await once(site, 'listening');
  port = (site.address() as AddressInfo).port;
  proxy = await startForwardProxy((host) => (host === 'a.test' ? port : undefined));
});
afterAll(async () => {
  await proxy.close();
  site.close();
});

function fetchThrough(url: string) {
  const dispatcher = createDispatcher({
    resolve: [], connectTimeoutMs: 1000, connectionsPerOrigin: 1,
    // The names are the proxy's to resolve; the test's guard trusts them so that no lookup is made here.
    guard: addressGuard({ allowPrivate: false, trustedHosts: ['a.test', 'refused.test'] }),
    lookup: (_name, _options, cb) => cb(Object.assign(new Error('no DNS in this test'), { code: 'ENOTFOUND' }), []),
    proxy: proxySettings(proxy.url, {})!,
  });
  const opts = { dispatcher, userAgent: 'tarantula/test', headerTimeoutMs: 2000, bodyTimeoutMs: 2000, maxBodySize: 0, maxDecodedSize: 0 };
  return fetchDocument(url, opts).finally(() => dispatcher.destroy());
}

describe('ProxyRouter', () => {
  it('sends a plain http request through the proxy', async () => {
    const res = await fetchThrough(`http://a.test:${port}/x`);
    expect(res.body.toString()).toBe('via 1.1 test-proxy');
    expect(proxy.requests).toContainEqual({ method: 'GET', host: 'a.test', port, path: '/x' });
  });

  it('names a CONNECT the proxy refuses proxy-refused, to be retried', async () => {
    const err = await fetchThrough('https://refused.test:4443/').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect(err).toMatchObject({ code: 'proxy-refused', action: 'retry' });
    expect((err as FetchError).message).toContain('502');
  });
});

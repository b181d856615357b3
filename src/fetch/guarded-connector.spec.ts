import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import buildConnector from 'undici/lib/core/connect.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressGuard } from './address-guard.js';
import { guardedConnector, type Lookup } from './guarded-connector.js';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((s) => s.end()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
});

/** A lookup that answers every name with `addresses`. */
const answering = (...addresses: string[]): Lookup => (_name, _options, cb) => cb(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

/**
 * undici's connector below a recorder that refuses anything but 127.0.0.1 (so no packet leaves
 * loopback) and, to stand for a host without that network, answers 127.0.0.2 with ENETUNREACH.
 */
function recording() {
  const tried: string[] = [];
  const real = buildConnector({ timeout: 1000 });
  const connector: buildConnector.connector = (options, callback) => {
    tried.push(options.hostname);
    if (options.hostname === '127.0.0.1') return real(options, callback);
    const code = options.hostname === '127.0.0.2' ? 'ENETUNREACH' : 'ECONNREFUSED';
    callback(Object.assign(new Error(code), { code }), null);
  };
  return { tried, connector };
}

function connectTo(lookup: Lookup, hostname = 'www.a.test', timeoutMs = 1000, trusted: string[] = []): Promise<{ err: Error | null; tried: string[] }> {
  const { tried, connector } = recording();
  const guard = addressGuard({ allowPrivate: false, trustedHosts: trusted });
  const connect = guardedConnector({ connector, lookup, guard, pinned: (h) => (h === 'pinned.test' ? '127.0.0.1' : undefined), timeoutMs });
  return new Promise((resolve) =>
    connect({ hostname, host: `${hostname}:${port}`, protocol: 'http:', port: String(port) }, (err, socket) => {
      (socket as Socket | null)?.destroy();
      resolve({ err, tried });
    }),
  );
}

describe('guardedConnector', () => {
  it('connects a pinned host to its resolve address without a lookup, whatever the guard thinks of it', async () => {
    const { err, tried } = await connectTo(() => expect.unreachable('no lookup for a pinned host'), 'pinned.test');
    expect(err).toBeNull();
    expect(tried).toEqual(['127.0.0.1']);
  });

  it('refuses a name whose every address is refused, without connecting', async () => {
    const { err, tried } = await connectTo(answering('10.0.0.5', '127.0.0.1'));
    expect(err).toMatchObject({ code: 'ERR_PRIVATE_ADDRESS', address: '10.0.0.5', kind: 'private' });
    expect(tried).toEqual([]);
  });

  it('connects only to the allowed addresses of a name that has both', async () => {
    const { tried } = await connectTo(answering('169.254.169.254', '93.184.215.14'));
    expect(tried).toEqual(['93.184.215.14']);
  });

  it('tries the next address of a trusted name when the network cannot reach one', async () => {
    const { err, tried } = await connectTo(answering('127.0.0.2', '127.0.0.1'), 'www.a.test', 1000, ['www.a.test']);
    expect(err).toBeNull();
    expect(tried).toEqual(['127.0.0.2', '127.0.0.1']);
  });

  it('refuses a literal private address without a lookup', async () => {
    const { err, tried } = await connectTo(() => expect.unreachable('no lookup for a literal'), '192.168.0.1');
    expect(err).toMatchObject({ code: 'ERR_PRIVATE_ADDRESS', kind: 'private' });
    expect(tried).toEqual([]);
  });

  it('gives up on a lookup that does not answer within the connect timeout', async () => {
    const { err } = await connectTo(() => undefined, 'www.a.test', 20);
    expect(err).toMatchObject({ code: 'UND_ERR_CONNECT_TIMEOUT' });
  });
});

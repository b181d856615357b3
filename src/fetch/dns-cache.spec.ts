import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressGuard } from './address-guard.js';
import { createDispatcher } from './create-dispatcher.js';
import { cachingLookup, type Resolver } from './dns-cache.js';
import { fetchDocument } from './fetch-document.js';

/** A resolver that answers every name with `addresses` after a tick, and counts what it was asked. */
function fakeResolver(addresses: LookupAddress[] = [{ address: '127.0.0.1', family: 4 }]) {
  const asked: string[] = [];
  const resolver: Resolver = (hostname, callback) => {
    asked.push(hostname);
    setImmediate(() => callback(null, addresses));
  };
  return { asked, resolver };
}

type Answer = { err: NodeJS.ErrnoException | null; address: unknown; family?: number };

function ask(lookup: ReturnType<typeof cachingLookup>, hostname: string, options: { family?: number; all?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve) => lookup(hostname, options, (err, address, family) => resolve({ err, address, family })));
}

let server: Server;
let port: number;
beforeAll(async () => {
  // Every response closes its connection, so each request needs a new one (and a lookup).
  server = createServer((_req, res) => res.writeHead(200, { Connection: 'close' }).end('ok'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('cachingLookup', () => {
  it('asks the resolver once for two lookups of a name, and answers both', async () => {
    const { asked, resolver } = fakeResolver();
    const lookup = cachingLookup({ resolver });
    expect(await ask(lookup, 'www.a.test')).toEqual({ err: null, address: '127.0.0.1', family: 4 });
    expect(await ask(lookup, 'www.a.test')).toEqual({ err: null, address: '127.0.0.1', family: 4 });
    expect(asked).toEqual(['www.a.test']);
  });

  it('shares one resolver call between concurrent lookups of a name', async () => {
    const { asked, resolver } = fakeResolver();
    const lookup = cachingLookup({ resolver });
    const answers = await Promise.all([ask(lookup, 'a.test'), ask(lookup, 'a.test'), ask(lookup, 'b.test')]);
    expect(answers.map((a) => a.address)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
    expect(asked).toEqual(['a.test', 'b.test']);
  });

  it('asks again once the TTL has passed', async () => {
    const { asked, resolver } = fakeResolver();
    let clock = 1_000;
    const lookup = cachingLookup({ resolver, ttlMs: 60_000, now: () => clock });
    await ask(lookup, 'a.test');
    clock += 59_999;
    await ask(lookup, 'a.test');
    expect(asked).toHaveLength(1);
    clock += 1;
    await ask(lookup, 'a.test');
    expect(asked).toHaveLength(2);
  });

  it('answers `all` and `family` from the cached addresses', async () => {
    const both: LookupAddress[] = [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }];
    const lookup = cachingLookup({ resolver: fakeResolver(both).resolver });
    expect((await ask(lookup, 'a.test', { all: true })).address).toEqual(both);
    expect(await ask(lookup, 'a.test', { family: 4 })).toEqual({ err: null, address: '127.0.0.1', family: 4 });
    expect(await ask(lookup, 'a.test')).toEqual({ err: null, address: '::1', family: 6 });
  });

  it('does not cache failures', async () => {
    const asked: string[] = [];
    const lookup = cachingLookup({
      resolver: (hostname, callback) => {
        asked.push(hostname);
        setImmediate(() => callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []));
      },
    });
    expect((await ask(lookup, 'gone.test')).err?.code).toBe('ENOTFOUND');
    expect((await ask(lookup, 'gone.test')).err?.code).toBe('ENOTFOUND');
    expect(asked).toHaveLength(2);
  });

  it('forgets the oldest name beyond maxHosts', async () => {
    const { asked, resolver } = fakeResolver();
    const lookup = cachingLookup({ resolver, maxHosts: 2 });
    for (const name of ['a.test', 'b.test', 'c.test', 'b.test', 'a.test']) await ask(lookup, name);
    expect(asked).toEqual(['a.test', 'b.test', 'c.test', 'a.test']);
  });

  it('serves net.connect: two connections to one name, one lookup', async () => {
    const { asked, resolver } = fakeResolver();
    const lookup = cachingLookup({ resolver });
    for (let i = 0; i < 2; i++) {
      const socket = connect({ host: 'www.a.test', port, lookup });
      await once(socket, 'connect');
      socket.destroy();
    }
    expect(asked).toEqual(['www.a.test']);
  });

  it('serves the crawler’s undici dispatcher: two requests on two connections, one lookup', async () => {
    const { asked, resolver } = fakeResolver();
    // The fake DNS answers with loopback, which the SSRF guard allows only for a trusted (seed) host.
    const guard = addressGuard({ allowPrivate: false, trustedHosts: ['www.a.test'] });
    const dispatcher = createDispatcher({ resolve: [], connectTimeoutMs: 1_000, connectionsPerOrigin: 1, lookup: cachingLookup({ resolver }), guard });
    const opts = { dispatcher, userAgent: 'tarantula/test', headerTimeoutMs: 1000, bodyTimeoutMs: 1000, maxBodySize: 0, maxDecodedSize: 0 };
    for (let i = 0; i < 2; i++) expect((await fetchDocument(`http://www.a.test:${port}/`, opts)).body.toString()).toBe('ok');
    await dispatcher.close();
    expect(asked).toEqual(['www.a.test']);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Client from 'undici/lib/dispatcher/client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/support/until.js';
import { fetchDocument } from './fetch-document.js';
import { OriginPools } from './origin-pools.js';

/** Five servers, five origins; each counts its open connections, and `/slow` answers when `release` is called. */
const servers: Server[] = [];
const open: Set<Socket>[] = [];
let release: () => void = () => undefined;
/** `/slow` requests the servers have received. */
let slowSeen = 0;
const origin = (i: number): string => `http://127.0.0.1:${(servers[i]!.address() as AddressInfo).port}`;
const openConnections = (): number => open.reduce((n, s) => n + s.size, 0);

beforeAll(async () => {
  for (let i = 0; i < 5; i++) {
    const sockets = new Set<Socket>();
    const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      if (req.url === '/slow') {
        slowSeen++;
        release = () => res.end('slow');
      }
      else res.end(`page ${i}`);
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    servers.push(server);
    open.push(sockets);
  }
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
});

const get = (pools: OriginPools, url: string) => fetchDocument(url, { dispatcher: pools, userAgent: 'tarantula/test', headerTimeoutMs: 10_000, bodyTimeoutMs: 10_000, maxBodySize: 1 << 20, maxDecodedSize: 1 << 20 });

describe('OriginPools', () => {
  it('keeps the connections of the most recent idle origins open and closes the older ones', async () => {
    const pools = new OriginPools({ factory: (o) => new Client(o, { keepAliveTimeout: 60_000 }), maxIdle: 2 });
    for (let i = 0; i < 5; i++) expect((await get(pools, `${origin(i)}/`)).body.toString()).toBe(`page ${i}`);
    // One origin over the bound at most: the newest, made before the older ones are closed.
    expect(pools.size).toBeLessThanOrEqual(3);
    await until(() => openConnections() <= 3);
    expect(open[4]!.size).toBe(1);
    // An origin closed earlier is opened again when the crawl comes back to it.
    expect((await get(pools, `${origin(0)}/`)).body.toString()).toBe('page 0');
    await pools.destroy();
    await until(() => openConnections() === 0);
  });

  it('leaves an origin with a request in flight open, however old', async () => {
    const pools = new OriginPools({ factory: (o) => new Client(o, { keepAliveTimeout: 60_000 }), maxIdle: 2 });
    const slow = get(pools, `${origin(0)}/slow`);
    await until(() => open[0]!.size === 1);
    for (let i = 1; i < 5; i++) await get(pools, `${origin(i)}/`);
    expect(open[0]!.size).toBe(1);
    release();
    expect((await slow).body.toString()).toBe('slow');
    await pools.destroy();
  });

  it('sends a request to an idle connection of its origin, and opens a second only for a request beside a busy one', async () => {
    const pools = new OriginPools({ factory: (o) => new Client(o, { keepAliveTimeout: 60_000 }), connections: 2, maxIdle: 2 });
    // A host's robots.txt, then its page: one connection, where undici's Pool of two opened two.
    for (const path of ['/robots.txt', '/', '/gone']) expect((await get(pools, `${origin(1)}${path}`)).body.toString()).toBe('page 1');
    expect(open[1]!.size).toBe(1);
    const seen = slowSeen;
    const slow = get(pools, `${origin(1)}/slow`);
    await until(() => slowSeen > seen);
    expect((await get(pools, `${origin(1)}/`)).body.toString()).toBe('page 1');
    expect(open[1]!.size).toBe(2);
    release();
    expect((await slow).body.toString()).toBe('slow');
    await pools.destroy();
    await until(() => openConnections() === 0);
  });
});

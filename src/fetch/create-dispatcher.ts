import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import buildConnector from 'undici/lib/core/connect.js';
import type { ResolveEntry } from '../config/config.js';
import { cachingLookup } from './dns-cache.js';

export interface DispatcherOptions {
  readonly resolve: readonly ResolveEntry[];
  readonly connectTimeoutMs: number;
  /** Connections kept per origin: requests in flight to one host at most. */
  readonly connectionsPerOrigin: number;
  readonly userAgent?: string;
  /** The name lookup of new connections. Default: a {@link cachingLookup} over the system resolver. */
  readonly lookup?: ReturnType<typeof cachingLookup>;
  /** Filled with `host:port` → the peer address of its latest connection (what a WARC's WARC-IP-Address says). */
  readonly remoteAddresses?: Map<string, string>;
}

/**
 * The undici Agent every fetch goes through: keep-alive connections per origin, a DNS cache, and
 * curl-style `--resolve HOST:PORT:ADDRESS` overrides (the Host header and TLS server name stay those
 * of the URL, so tests and users can point real names at loopback).
 *
 * @example
 * const agent = createDispatcher({ resolve: [{ host: 'www.a.test', port: 80, address: '127.0.0.1' }], connectTimeoutMs: 10_000, connectionsPerOrigin: 1 });
 */
export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  const overrides = new Map(opts.resolve.map((r) => [`${r.host.toLowerCase()}:${r.port}`, r.address.replace(/^\[|\]$/g, '')]));
  const connector = buildConnector({ timeout: opts.connectTimeoutMs || null, lookup: opts.lookup ?? cachingLookup() } as buildConnector.BuildOptions);
  const addresses = opts.remoteAddresses;
  const connect: buildConnector.connector = (options, done) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const hostname = options.hostname.replace(/^\[|\]$/g, '');
    const callback: typeof done = addresses === undefined ? done : (err, socket) => {
      if (socket?.remoteAddress !== undefined) addresses.set(`${hostname.toLowerCase()}:${port}`, socket.remoteAddress);
      (done as (err: Error | null, socket: unknown) => void)(err, socket);
    };
    const address = overrides.get(`${hostname.toLowerCase()}:${port}`);
    if (address === undefined) return connector(options, callback);
    return connector({ ...options, hostname: address, servername: options.servername ?? hostname }, callback);
  };
  return new Agent({
    connect,
    connections: Math.max(1, opts.connectionsPerOrigin),
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
  });
}

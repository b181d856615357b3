import type { Dispatcher } from 'undici';
import buildConnector from 'undici/lib/core/connect.js';
import Client from 'undici/lib/dispatcher/client.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import type { ResolveEntry } from '../model/config.js';
import { addressGuard, bare, type AddressGuard } from './address-guard.js';
import { cachingLookup } from './dns-cache.js';
import { guardedConnector, type Lookup } from './guarded-connector.js';
import { OriginPools } from './origin-pools.js';
import { ProxyRouter } from './proxy-router.js';
import type { ProxySettings } from './proxy-settings.js';
import { tlsConnectOptions, type TlsSettings } from './tls-options.js';

/** How {@link createDispatcher} connects: resolve entries, timeouts, connections per origin, the SSRF guard, TLS, proxy, HTTP/2. */
export interface DispatcherOptions {
  readonly resolve: readonly ResolveEntry[];
  readonly connectTimeoutMs: number;
  /** Connections kept per origin: requests in flight to one host at most. */
  readonly connectionsPerOrigin: number;
  /**
   * Idle origins whose keep-alive connections stay open; the least recently used beyond it are
   * closed. Default 256: a crawl is busy with at most `threads` origins at once, and a host it
   * comes back to within a few hundred others finds its connections still open.
   */
  readonly idleOrigins?: number;
  readonly userAgent?: string;
  /** The name lookup of new connections. Default: a {@link cachingLookup} over the system resolver. */
  readonly lookup?: Lookup;
  /** The SSRF guard. Default: every special-purpose address refused (`resolve` entries aside). */
  readonly guard?: AddressGuard;
  /** Trust roots and verification of https connections. Default: Node's roots, verified. */
  readonly tls?: TlsSettings;
  /** Offer HTTP/2 to https servers (ALPN); they choose. Default false. */
  readonly http2?: boolean;
  /** Proxies (see {@link proxySettings}). Default: none. */
  readonly proxy?: ProxySettings;
  /**
   * Wraps the connector that opens each direct connection, which is always given a literal address:
   * tests record where connections go and refuse any outside loopback.
   */
  readonly wrapConnector?: (connector: buildConnector.connector) => buildConnector.connector;
  /**
   * Filled with `host:port` → the peer address of its latest direct connection (what a WARC's
   * WARC-IP-Address says); behind a proxy the target's address is the proxy's to know.
   */
  readonly remoteAddresses?: Map<string, string>;
}

/**
 * The undici dispatcher every fetch goes through: keep-alive connections per origin, a DNS cache,
 * curl-style `--resolve HOST:PORT:ADDRESS` overrides (the Host header and TLS server name stay those
 * of the URL, so tests and users can point real names at loopback), the SSRF guard on the address
 * connected to, the TLS options, HTTP/2 when asked, and proxies.
 *
 * @example
 * const agent = createDispatcher({ resolve: [{ host: 'www.a.test', port: 80, address: '127.0.0.1' }], connectTimeoutMs: 10_000, connectionsPerOrigin: 1 });
 */
export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  const overrides = new Map(opts.resolve.map((r) => [`${r.host.toLowerCase()}:${r.port}`, r.address.replace(/^\[|\]$/g, '')]));
  const pinned = (hostname: string, port: number): string | undefined => overrides.get(`${hostname}:${port}`);
  const lookup = opts.lookup ?? cachingLookup();
  const guard = opts.guard ?? addressGuard({ allowPrivate: false, trustedHosts: [] });
  const timeout = opts.connectTimeoutMs || null;
  const tls = tlsConnectOptions(opts.tls ?? { caFile: undefined, insecure: false });
  const allowH2 = opts.http2 ?? false;
  const connector = buildConnector({ timeout, allowH2, ...tls } as buildConnector.BuildOptions);
  const guarded = guardedConnector({ connector: opts.wrapConnector?.(connector) ?? connector, lookup, guard, pinned, timeoutMs: opts.connectTimeoutMs });
  const connect = opts.remoteAddresses ? recordingPeers(guarded, opts.remoteAddresses) : guarded;
  const agentOptions = { connections: Math.max(1, opts.connectionsPerOrigin), keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 };
  const { keepAliveTimeout, keepAliveMaxTimeout } = agentOptions;
  const direct = new OriginPools({
    factory: (origin) => new Client(origin, { connect, keepAliveTimeout, keepAliveMaxTimeout }),
    connections: agentOptions.connections,
    maxIdle: opts.idleOrigins ?? 256,
  });
  if (opts.proxy === undefined) return direct;
  return new ProxyRouter({
    direct,
    settings: opts.proxy,
    guard,
    lookup,
    pinned,
    // Plain http goes to the proxy as an absolute-form GET, https through a CONNECT tunnel, as curl does.
    through: (uri) =>
      new ProxyAgent({
        uri,
        proxyTunnel: false,
        ...agentOptions,
        requestTls: { timeout, allowH2, ...tls } as buildConnector.BuildOptions,
        proxyTls: { timeout, ...tls } as buildConnector.BuildOptions,
      }),
  });
}

/** A connector that notes the peer address of each connection it opens, by `host:port`. */
function recordingPeers(connector: buildConnector.connector, addresses: Map<string, string>): buildConnector.connector {
  return (options, done) => {
    const key = `${bare(options.hostname)}:${Number(options.port) || (options.protocol === 'https:' ? 443 : 80)}`;
    connector(options, (err, socket) => {
      if (socket?.remoteAddress !== undefined) addresses.set(key, socket.remoteAddress);
      (done as (err: Error | null, socket: unknown) => void)(err, socket);
    });
  };
}

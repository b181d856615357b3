import type { LookupAddress } from 'node:dns';
import { isIPv4 } from 'node:net';
import type { NetworkHooks } from '../../src/engine/fetcher.js';
import { cachingLookup } from '../../src/fetch/dns-cache.js';

/** What a crawl on a {@link recordingNetwork} asked for. */
export interface NetworkRecord {
  /** Every address a connection was about to be opened to, in order, refused or not. */
  readonly connects: string[];
  /** Every name the crawl looked up. */
  readonly lookups: string[];
}

/**
 * Network hooks for a crawl that must never send a packet outside loopback, even when the SSRF guard
 * is broken: names resolve from `dns` only (never the system resolver), and the connector below the
 * guard records each address and refuses any outside 127.0.0.0/8 before a socket exists.
 *
 * @example
 * const { hooks, record } = recordingNetwork({ 'rebind.test': ['10.0.0.5'] });
 * await runCrawl(config, log, { stdout, network: hooks }); record.connects //=> ['127.0.0.1', ...]
 */
export function recordingNetwork(dns: Readonly<Record<string, readonly string[]>>): { hooks: NetworkHooks; record: NetworkRecord } {
  const record: NetworkRecord = { connects: [], lookups: [] };
  const lookup = cachingLookup({
    resolver: (hostname, callback) => {
      record.lookups.push(hostname);
      const addresses = dns[hostname];
      if (addresses === undefined) return callback(Object.assign(new Error(`test DNS: no ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, addresses.map((address): LookupAddress => ({ address, family: isIPv4(address) ? 4 : 6 })));
    },
  });
  const hooks: NetworkHooks = {
    lookup,
    wrapConnector: (connector) => (options, callback) => {
      record.connects.push(options.hostname);
      if (!isIPv4(options.hostname) || !options.hostname.startsWith('127.')) {
        return callback(Object.assign(new Error(`test network: ${options.hostname} is outside loopback`), { code: 'ECONNREFUSED' }), null);
      }
      connector(options, callback);
    },
  };
  return { hooks, record };
}

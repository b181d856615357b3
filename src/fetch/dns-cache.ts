import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Asks for every address of a name: `dns.lookup(hostname, { all: true }, callback)` by default. */
export type Resolver = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

export interface DnsCacheOptions {
  /** How long an answer is reused. Default 5 minutes. */
  readonly ttlMs?: number;
  /** Most host names kept; the oldest is dropped beyond it. Default 10,000. */
  readonly maxHosts?: number;
  /** Where answers come from. Default: the system resolver (getaddrinfo, as Node's own lookup). */
  readonly resolver?: Resolver;
  /** The clock TTLs are measured with. Default Date.now. */
  readonly now?: () => number;
}

/**
 * A `lookup` for net.connect that asks the resolver once per host name per TTL, so a crawl of many
 * pages on one host does not resolve its name for every new connection (IIR §20.2.2: DNS is a
 * bottleneck). Concurrent lookups of one name share the resolver call.
 *
 * @example
 * const agent = new Agent({ connect: { lookup: cachingLookup() } });
 */
export function cachingLookup(opts: DnsCacheOptions = {}) {
  const ttl = opts.ttlMs ?? 300_000;
  const maxHosts = opts.maxHosts ?? 10_000;
  const resolver = opts.resolver ?? systemResolver;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { at: number; addresses: LookupAddress[] }>();
  const inflight = new Map<string, LookupCallback[]>();

  const answer = (addresses: LookupAddress[], options: LookupOptions, cb: LookupCallback): void => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (wanted.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`no IPv${String(options.family)} address`);
      err.code = 'ENOTFOUND';
      cb(err, '');
    } else if (options.all) cb(null, wanted);
    else cb(null, wanted[0]!.address, wanted[0]!.family);
  };

  return function lookup(hostname: string, options: LookupOptions, cb: LookupCallback): void {
    const hit = cache.get(hostname);
    if (hit && now() - hit.at < ttl) return answer(hit.addresses, options, cb);
    const waiting = inflight.get(hostname);
    const mine: LookupCallback = (err, addresses) =>
      err ? cb(err, '') : answer(addresses as LookupAddress[], options, cb);
    if (waiting) {
      waiting.push(mine);
      return;
    }
    inflight.set(hostname, [mine]);
    resolver(hostname, (err, addresses) => {
      const callbacks = inflight.get(hostname) ?? [];
      inflight.delete(hostname);
      if (!err) {
        if (cache.size >= maxHosts) cache.delete(cache.keys().next().value!);
        cache.delete(hostname);
        cache.set(hostname, { at: now(), addresses });
      }
      for (const callback of callbacks) callback(err, addresses);
    });
  };
}

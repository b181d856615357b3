import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type buildConnector from 'undici/lib/core/connect.js';
import { bare, type AddressGuard } from './address-guard.js';

/** A `lookup` as net.connect takes it (the DNS cache's). */
export type Lookup = (
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export interface GuardedConnectorOptions {
  /** Connects to one literal address (undici's buildConnector, with the TLS options). */
  readonly connector: buildConnector.connector;
  readonly lookup: Lookup;
  readonly guard: AddressGuard;
  /** The address a `resolve` entry pins HOST:PORT to: used as is, never judged (the user chose it). */
  readonly pinned: (hostname: string, port: number) => string | undefined;
  /** How long the name lookup may take, in ms; 0 = no limit. */
  readonly timeoutMs: number;
}

/** Network-level failures after which the next address of a name is tried (an IPv6 answer on a host without IPv6). */
const TRY_NEXT = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/**
 * A connector for undici that decides where each connection goes and checks it there: a `resolve`
 * entry's address; a literal address, judged by the guard; or a name, looked up here and judged on
 * each address of the answer, then connected to by that address (the TLS server name stays the
 * host's). The connector below only ever sees a literal address, so no second lookup can answer
 * differently (DNS rebinding) between the check and the connection.
 *
 * @example
 * const connect = guardedConnector({ connector: buildConnector({}), lookup: cachingLookup(), guard, pinned: () => undefined, timeoutMs: 10_000 });
 * new Agent({ connect });
 */
export function guardedConnector(opts: GuardedConnectorOptions): buildConnector.connector {
  return (options, callback) => {
    const hostname = bare(options.hostname);
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    // The TLS server name stays the host's; an IP address is no server name (RFC 6066 §3).
    const servername = options.servername ?? (isIP(hostname) === 0 ? hostname : undefined);
    const to = (address: string): buildConnector.Options => ({ ...options, hostname: address, servername });
    const pinned = opts.pinned(hostname, port);
    if (pinned !== undefined) return opts.connector(to(pinned), callback);
    if (isIP(hostname) !== 0) {
      const refused = opts.guard.refusal(hostname, hostname);
      return refused ? callback(refused, null) : opts.connector(options, callback);
    }
    lookupAll(opts, hostname, (err, answer) => {
      if (err) return callback(err, null);
      const allowed = answer.filter((a) => opts.guard.refusal(hostname, a.address) === undefined);
      if (allowed.length === 0) return callback(opts.guard.refusal(hostname, answer[0]!.address)!, null);
      const attempt = (i: number): void =>
        opts.connector(to(allowed[i]!.address), (...result) => {
          const [error] = result;
          if (error && TRY_NEXT.has((error as NodeJS.ErrnoException).code ?? '') && i + 1 < allowed.length) attempt(i + 1);
          else callback(...result);
        });
      attempt(0);
    });
  };
}

/** Every address of a name, or a connect-timeout error when the lookup takes longer than the connection may. */
function lookupAll(opts: GuardedConnectorOptions, hostname: string, done: (err: Error | null, answer: LookupAddress[]) => void): void {
  let over = false;
  const timer =
    opts.timeoutMs > 0
      ? setTimeout(() => {
          over = true;
          done(Object.assign(new Error(`looking up ${hostname} took more than ${opts.timeoutMs} ms`), { code: 'UND_ERR_CONNECT_TIMEOUT' }), []);
        }, opts.timeoutMs)
      : undefined;
  opts.lookup(hostname, { all: true }, (err, addresses) => {
    if (over) return;
    clearTimeout(timer);
    const answer = addresses as LookupAddress[];
    if (err || answer.length === 0) done(err ?? Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
    else done(null, answer);
  });
}

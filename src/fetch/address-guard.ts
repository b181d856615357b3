import { isIP } from 'node:net';
import { addressClass, type AddressClass } from './address-class.js';

/** A connection the guard refused: the host's address is private, loopback, link-local... */
export class PrivateAddressError extends Error {
  readonly code = 'ERR_PRIVATE_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressClass,
  ) {
    super(`${host === address ? address : `${host} resolves to ${address}`}: ${kind} address refused (allow-private-addresses = true allows it)`);
    this.name = 'PrivateAddressError';
  }
}

export interface AddressGuardOptions {
  /** `allow-private-addresses`: nothing is refused. */
  readonly allowPrivate: boolean;
  /** Host names (or literal addresses) that may resolve anywhere: the seeds' hosts, crawled on purpose. */
  readonly trustedHosts: Iterable<string>;
}

/**
 * Decides whether a host may be reached at an address. The connector asks it about the address it
 * is about to connect to, after DNS (so a name that rebinds to 10.0.0.5 between two lookups is
 * judged on the answer actually used); admission asks it about literal addresses in links.
 */
export interface AddressGuard {
  /** Why `host` may not be reached at `address`, or undefined when it may. */
  refusal(host: string, address: string): PrivateAddressError | undefined;
}

/**
 * The SSRF guard of SPEC §5: refuses every special-purpose address ({@link addressClass}) unless
 * private addresses are allowed or the host is trusted.
 *
 * @example
 * const guard = addressGuard({ allowPrivate: false, trustedHosts: ['intranet.example'] });
 * guard.refusal('www.a.test', '10.0.0.5')?.kind //=> 'private'
 * guard.refusal('intranet.example', '10.0.0.5') //=> undefined
 */
export function addressGuard(opts: AddressGuardOptions): AddressGuard {
  if (opts.allowPrivate) return { refusal: () => undefined };
  const trusted = new Set([...opts.trustedHosts].map(bare));
  return {
    refusal(host, address) {
      const name = bare(host);
      if (trusted.has(name)) return undefined;
      const kind = addressClass(address);
      return kind === undefined ? undefined : new PrivateAddressError(name, bare(address), kind);
    },
  };
}

/** The hostname of a URL's host as the connector sees it: lowercase, IPv6 without brackets. */
export function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/** A literal IP address as a URL's host (`10.0.0.5`, `[::1]`), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const address = bare(hostname);
  return isIP(address) === 0 ? undefined : address;
}

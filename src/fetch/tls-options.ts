import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

export interface TlsSettings {
  /** `ca-file`: PEM certificates trusted on top of the usual roots. */
  readonly caFile: string | undefined;
  /** `insecure`: certificates are not verified at all. */
  readonly insecure: boolean;
}

/** What undici's connector passes to tls.connect for every https connection. */
export interface TlsConnectOptions {
  readonly rejectUnauthorized: boolean;
  readonly ca?: string[];
}

/**
 * The TLS options of the crawl's connections. Node's `ca` option replaces the trust store, so a
 * `ca-file` is given together with Node's bundled roots and the NODE_EXTRA_CA_CERTS file (which
 * Node would otherwise add): the file adds trust, it takes none away.
 *
 * @example
 * tlsConnectOptions({ caFile: 'test-ca.pem', insecure: false }) //=> { rejectUnauthorized: true, ca: [...roots, '-----BEGIN CERTIFICATE-----...'] }
 */
export function tlsConnectOptions(settings: TlsSettings): TlsConnectOptions {
  const rejectUnauthorized = !settings.insecure;
  if (settings.caFile === undefined) return { rejectUnauthorized };
  return { rejectUnauthorized, ca: [...rootCertificates, ...extraCertificates(), readFileSync(settings.caFile, 'utf8')] };
}

/** The NODE_EXTRA_CA_CERTS file, as Node reads it at start: one it cannot read adds nothing (Node warns about it itself). */
function extraCertificates(): string[] {
  const path = process.env['NODE_EXTRA_CA_CERTS'];
  if (!path) return [];
  try {
    return [readFileSync(path, 'utf8')];
  } catch {
    return [];
  }
}

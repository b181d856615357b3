import type { FetchResponse } from '../model/fetch-response.js';

/** What the engine does next about a failed fetch. */
export type FailureAction = 'retry' | 'give-up';

/**
 * A fetch that did not produce a usable response, named by a stable `code` (as undici's UND_ERR_*):
 * `connect-timeout`, `header-timeout`, `body-timeout`, `download-timeout`, `dns`, `refused`, `reset`, `network`,
 * `bad-response`, `bad-encoding` (a body not what its Content-Encoding says), `aborted`, `private-address` (the SSRF guard refused the address), and `tls-...` for a
 * certificate that does not verify (never retried: the certificate will not change in a minute);
 * behind a proxy, `proxy-refused` (a CONNECT not answered 200) and `proxy-auth` (407).
 */
export class FetchError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly action: FailureAction,
    /**
     * With `capture`, the response that came but cannot be used, for an archive: its body not what
     * its Content-Encoding says, or cut by the server (`cutBy`).
     */
    readonly response?: FetchResponse,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

const byCode: Record<string, [string, FailureAction]> = {
  UND_ERR_CONNECT_TIMEOUT: ['connect-timeout', 'retry'],
  UND_ERR_HEADERS_TIMEOUT: ['header-timeout', 'retry'],
  UND_ERR_BODY_TIMEOUT: ['body-timeout', 'retry'],
  UND_ERR_SOCKET: ['reset', 'retry'],
  ECONNRESET: ['reset', 'retry'],
  EPIPE: ['reset', 'retry'],
  ECONNREFUSED: ['refused', 'retry'],
  ENOTFOUND: ['dns', 'give-up'],
  EAI_AGAIN: ['dns', 'retry'],
  EHOSTUNREACH: ['network', 'retry'],
  ENETUNREACH: ['network', 'retry'],
  ETIMEDOUT: ['connect-timeout', 'retry'],
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: ['bad-response', 'retry'],
  HPE_INVALID_CONSTANT: ['bad-response', 'give-up'],
  HPE_INVALID_CONTENT_LENGTH: ['bad-response', 'give-up'],
  HPE_UNEXPECTED_CONTENT_LENGTH: ['bad-response', 'give-up'],
  HPE_HEADER_OVERFLOW: ['bad-response', 'give-up'],
  UND_ERR_INFO: ['bad-response', 'give-up'],
  UND_ERR_ABORTED: ['aborted', 'give-up'],
  ABORT_ERR: ['aborted', 'give-up'],
  UND_ERR_INVALID_ARG: ['bad-request', 'give-up'],
  ERR_PRIVATE_ADDRESS: ['private-address', 'give-up'],
  // Node's and OpenSSL's certificate verification codes.
  CERT_HAS_EXPIRED: ['tls-cert-expired', 'give-up'],
  CERT_NOT_YET_VALID: ['tls-cert-not-yet-valid', 'give-up'],
  DEPTH_ZERO_SELF_SIGNED_CERT: ['tls-self-signed', 'give-up'],
  SELF_SIGNED_CERT_IN_CHAIN: ['tls-unknown-ca', 'give-up'],
  UNABLE_TO_GET_ISSUER_CERT: ['tls-unknown-ca', 'give-up'],
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ['tls-unknown-ca', 'give-up'],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ['tls-unknown-ca', 'give-up'],
  ERR_TLS_CERT_ALTNAME_INVALID: ['tls-hostname-mismatch', 'give-up'],
  CERT_REVOKED: ['tls-cert-revoked', 'give-up'],
  CERT_UNTRUSTED: ['tls-untrusted', 'give-up'],
  CERT_REJECTED: ['tls-untrusted', 'give-up'],
  CERT_SIGNATURE_FAILURE: ['tls-bad-cert', 'give-up'],
  CERT_CHAIN_TOO_LONG: ['tls-bad-cert', 'give-up'],
  INVALID_CA: ['tls-bad-cert', 'give-up'],
  INVALID_PURPOSE: ['tls-bad-cert', 'give-up'],
  PATH_LENGTH_EXCEEDED: ['tls-bad-cert', 'give-up'],
};

/** Names any error thrown while fetching, so the log and the stats say what happened. */
export function toFetchError(err: unknown): FetchError {
  if (err instanceof FetchError) return err;
  const e = err as { name?: string; code?: unknown; message?: string; cause?: { code?: unknown } };
  const code = named(e.code) ?? named(e.cause?.code) ?? (e.name === 'AbortError' ? 'ABORT_ERR' : '');
  const known = byCode[code];
  const message = e.message ?? String(err);
  if (known) return new FetchError(known[0], `${message}${code ? ` (${code})` : ''}`, known[1]);
  if (code.startsWith('HPE_')) return new FetchError('bad-response', `${message} (${code})`, 'give-up');
  // A handshake the server refuses (no common protocol or cipher) is refused again on a retry.
  if (code.startsWith('ERR_SSL_')) return new FetchError('tls-handshake', `${message} (${code})`, 'give-up');
  return new FetchError('network', message, 'retry');
}

/** A code that names an error: a DOMException's is a number (20 for an AbortSignal's reason). */
function named(code: unknown): string | undefined {
  return typeof code === 'string' ? code : undefined;
}

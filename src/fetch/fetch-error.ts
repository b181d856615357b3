/** What the engine does next about a failed fetch. */
export type FailureAction = 'retry' | 'give-up';

/**
 * A fetch that did not produce a response, named by a stable `code` (as undici's UND_ERR_*):
 * `connect-timeout`, `header-timeout`, `body-timeout`, `dns`, `refused`, `reset`, `network`,
 * `bad-response`, `aborted`.
 */
export class FetchError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly action: FailureAction,
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
  return new FetchError('network', message, 'retry');
}

/** A code that names an error: a DOMException's is a number (20 for an AbortSignal's reason). */
function named(code: unknown): string | undefined {
  return typeof code === 'string' ? code : undefined;
}

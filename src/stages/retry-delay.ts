const BASE_MS = 1000;
const CAP_MS = 60_000;

/**
 * Exponential back-off with full jitter for the n-th retry (0-based): up to 1 s, 2 s, 4 s ... capped
 * at 60 s, so a struggling host is not hammered by every crawler retrying in lockstep.
 *
 * @example
 * retryDelayMs(0) //=> between 500 and 1000
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

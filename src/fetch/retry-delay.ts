const BASE_MS = 1000;
const CAP_MS = 60_000;

/**
 * Exponential back-off with jitter for the n-th retry (0-based): between half and all of 1 s, 2 s,
 * 4 s ... capped at 60 s, so a struggling host is not hammered by every crawler retrying in lockstep.
 *
 * @example
 * retryDelayMs(0) //=> between 500 and 1000
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

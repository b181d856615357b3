/** The longest Retry-After honoured; a server asking for more is given up on for this crawl, not waited for. */
export const MAX_RETRY_AFTER_MS = 600_000;

/**
 * A Retry-After header (RFC 9110 §10.2.3), as delay-seconds or an HTTP-date, in ms from `now`;
 * undefined when absent or unreadable. A date in the past is 0.
 *
 * @example
 * retryAfterMs('120') //=> 120000
 * retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')) //=> 60000
 */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP-date form starts with the day's name; Date.parse alone would take "1.5" for a date.
  if (!/^[a-z]{3}/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

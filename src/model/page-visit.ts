import type { IndexRecord } from './index-record.js';

/**
 * What the recrawl of a page needs of its last visit, wherever its stored copy is: the validators of
 * a conditional request, the content's MD5 (a 200 with the same body is unchanged), when it was last
 * requested and last found changed, and its adaptive schedule. A shared crawl keeps one per page in
 * Redis, so that any worker on any machine revalidates any page.
 */
export interface PageVisit {
  readonly etag: string | null;
  /** Last-Modified, else the server's Date: what If-Modified-Since sends. */
  readonly lastModified: string | null;
  readonly contentMd5: string;
  /** When it was last requested (ms since the epoch). */
  readonly fetchedAt: number;
  /** When a visit last found it new or changed (ms since the epoch). */
  readonly changedAt: number;
  /** Its recrawl interval (adaptive policy). */
  readonly fetchIntervalHours?: number;
  /** When it is next due (ms since the epoch; adaptive policy). */
  readonly nextFetch?: number;
}

/**
 * The visit an index record tells of (a new or changed page as far as the record knows: `changedAt`
 * is its fetch; the shared crawl's Redis keeps the earlier one while the content is the same).
 *
 * @example
 * visitOf(record).lastModified //=> record.lastModified ?? record.serverDate
 */
export function visitOf(record: IndexRecord): PageVisit {
  const fetchedAt = Date.parse(record.fetchedAt);
  return {
    etag: record.etag,
    lastModified: record.lastModified ?? record.serverDate,
    contentMd5: record.contentMd5,
    fetchedAt,
    changedAt: fetchedAt,
    ...(record.fetchIntervalHours !== undefined ? { fetchIntervalHours: record.fetchIntervalHours } : {}),
    ...(record.nextFetch !== undefined ? { nextFetch: Date.parse(record.nextFetch) } : {}),
  };
}

/**
 * A visit's schedule as an index record holds it (`nextFetch` as ISO 8601); nothing under the fixed policy.
 *
 * @example
 * recordSchedule(visit) //=> { nextFetch: '2026-12-06T21:00:00.000Z', fetchIntervalHours: 108 }
 */
export function recordSchedule(visit: PageVisit): Pick<IndexRecord, 'nextFetch' | 'fetchIntervalHours'> {
  return {
    ...(visit.nextFetch !== undefined ? { nextFetch: new Date(visit.nextFetch).toISOString() } : {}),
    ...(visit.fetchIntervalHours !== undefined ? { fetchIntervalHours: visit.fetchIntervalHours } : {}),
  };
}

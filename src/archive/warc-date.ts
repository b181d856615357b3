// Apart from the records, which load warcio: a crawl without a WARC dates its revisit candidates too.

/**
 * A WARC-Date: second precision, so that a CDXJ's 14-digit timestamp names it exactly (Refers-To-Date after a resume).
 *
 * @example
 * warcDate(Date.UTC(2026, 0, 2, 3, 4, 5, 678)) //=> '2026-01-02T03:04:05Z'
 */
export function warcDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

import { getSurt } from 'warcio';

/** One CDXJ line's fields, as pywb and warcio's `cdx-index --format cdxj` write them. */
export interface CdxjEntry {
  readonly url: string;
  /** The WARC-Date. */
  readonly date: string;
  /** `warc/revisit` for a revisit, else the response's Content-Type without parameters (absent when it has none). */
  readonly mime: string | undefined;
  /** The HTTP status; absent for a record with no HTTP head (a conversion). */
  readonly status: number | undefined;
  /** The payload digest without its `sha1:` (absent for a 304's revisit, which has no payload). */
  readonly digest: string | undefined;
  /** The gzip member: its length and where it starts in the file. */
  readonly length: number;
  readonly offset: number;
  readonly filename: string;
}

/**
 * A record's CDXJ line: SURT key, 14-digit timestamp, then JSON, with the fields, their order and
 * their string-typed numbers exactly as warcio's indexer writes them, so that a file indexed by it
 * gives the same lines.
 *
 * @example
 * cdxjLine({ url: 'http://www.a.test/x', date: '2026-12-01T09:00:00Z', mime: 'text/html', status: 200, digest: 'ABC', length: 900, offset: 312, filename: 'c-00000.warc.gz' })
 * //=> 'test,a)/x 20261201090000 {"url":"http://www.a.test/x","mime":"text/html","status":"200","digest":"ABC","length":"900","offset":"312","filename":"c-00000.warc.gz"}\n'
 */
export function cdxjLine(e: CdxjEntry): string {
  const json = {
    url: e.url,
    ...(e.mime !== undefined ? { mime: e.mime } : {}),
    ...(e.status !== undefined ? { status: String(e.status) } : {}),
    ...(e.digest !== undefined ? { digest: e.digest } : {}),
    length: String(e.length),
    offset: String(e.offset),
    filename: e.filename,
  };
  return `${getSurt(e.url)} ${e.date.replace(/[-:T]/g, '').slice(0, 14)} ${JSON.stringify(json)}\n`;
}

/** What a line says back, for a resume: where its member ends, and what the dedup of payloads needs. */
export interface CdxjSummary {
  readonly url: string;
  /** The 14-digit timestamp as a WARC-Date (WARC-Dates are written to the second). */
  readonly date: string;
  readonly mime: string | undefined;
  readonly status: number;
  readonly digest: string | undefined;
  readonly end: number;
}

/**
 * Reads one CDXJ line back; undefined when it is not one of ours (torn, or edited by hand).
 *
 * @example
 * parseCdxjLine(cdxjLine(entry))!.end //=> entry.offset + entry.length
 */
export function parseCdxjLine(line: string): CdxjSummary | undefined {
  const m = /^\S+ (\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d) (\{.*\})$/.exec(line);
  if (m === null) return undefined;
  try {
    const j = JSON.parse(m[7]!) as Record<string, string | undefined>;
    const end = Number(j.offset) + Number(j.length);
    if (typeof j.url !== 'string' || !Number.isSafeInteger(end)) return undefined;
    return { url: j.url, date: `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`, mime: j.mime, status: Number(j.status), digest: j.digest, end };
  } catch {
    return undefined;
  }
}

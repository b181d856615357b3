import type { CrawlerConfig } from '../model/config.js';
import type { FetchResponse } from '../model/fetch-response.js';
import { VERSION } from '../config/version.js';
import { cdxjLine, type CdxjSummary } from './cdxj.js';
import { gzipMember } from './gzip-member.js';
import { PayloadIndex } from './payload-index.js';
import { WarcSeries } from './warc-series.js';
import { warcDate } from './warc-date.js';
import { conversionRecord, CONVERSION_TYPE, exchangeRecords, IDENTICAL_PAYLOAD, SERVER_NOT_MODIFIED, sha1Digest, warcinfoRecord, type Original, type Revisit } from './warc-records.js';

/** Where the WARC series goes, when it rolls over, and the addresses of the hosts for WARC-IP-Address. */
export interface WarcArchiveOptions {
  /** PATH of `PATH-00000.warc.gz`; a trailing `.warc.gz` or `.warc` is dropped. */
  readonly path: string;
  /** Bytes; 0 = one file. */
  readonly maxSize: number;
  /** The warcinfo fields (software, the user agent, robots policy, ...). */
  readonly info: Readonly<Record<string, string>>;
  /** `host:port` → the peer address of its latest connection (filled by the dispatcher). */
  readonly addresses: ReadonlyMap<string, string>;
}

/**
 * A crawl's WARC/1.1 archive (SPEC §9): for every fetch a request record and a response record,
 * or a revisit — server-not-modified for a 304 on recrawl, identical-payload-digest for a payload
 * archived before (by SHA-1, across the whole series: on resume the CDXJ files say which payloads
 * are there) — and for a page rendered in a browser a conversion record of its DOM after them; each
 * a gzip member, with a CDXJ line per response, revisit or conversion.
 *
 * @example
 * const archive = await WarcArchive.open({ path: 'crawl', maxSize: 1e9, info: { software: 'tarantula/0.1.0' }, addresses });
 * await archive.record('http://www.a.test/', response); // response fetched with `capture: true`
 * await archive.close();
 */
export class WarcArchive {
  /** Payload digest → the first response that had it. */
  private readonly payloads = new PayloadIndex();
  private series!: WarcSeries;

  private constructor(private readonly opts: WarcArchiveOptions) {}

  /** Opens the series, cutting a torn last member of an interrupted run, and writes the warcinfo of a new file. */
  static async open(opts: WarcArchiveOptions): Promise<WarcArchive> {
    const archive = new WarcArchive(opts);
    archive.series = await WarcSeries.open({
      base: opts.path.replace(/\.warc(\.gz)?$/i, ''),
      maxSize: opts.maxSize,
      warcinfo: (filename) => gzipMember(warcinfoRecord(filename, opts.info)),
      known: (line) => archive.remember(line),
    });
    return archive;
  }

  /**
   * Archives one fetch (nothing when it was not captured). `previous` is, for a 304, the capture the
   * server says is unchanged; `rendered` the DOM a browser built from it, archived as a conversion
   * record referring to the response. Resolves once its records and CDXJ lines are written.
   */
  async record(url: string, response: FetchResponse, previous?: Original, rendered?: Uint8Array): Promise<void> {
    const wire = response.wire;
    if (wire === undefined) return;
    const u = new URL(url);
    const ip = this.opts.addresses.get(`${u.hostname.replace(/^\[|\]$/g, '')}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`);
    const date = warcDate(response.startedAt);
    const digest = sha1Digest(wire.body);
    const revisit = this.revisitOf(response, digest, previous);
    // A payload archived in full for the first time: later copies refer to it.
    if (revisit === undefined && deduplicable(response)) this.payloads.add(digest, url, response.startedAt);
    const truncated = response.truncated && (response.cutBy ?? 'length');
    const records = exchangeRecords({ url, host: u.host, status: response.status, date, truncated, wire, ip }, digest, revisit);
    const conversion = rendered && conversionRecord(url, warcDate(Date.now()), records[1].record.warcHeaders.headers.get('WARC-Record-ID')!, rendered);
    const members = await Promise.all([...records, ...(conversion ? [conversion] : [])].map(gzipMember));
    const type = response.headers['content-type'];
    await this.series.append({
      members,
      lines: (filename, offsets) =>
        cdxjLine({
          url, date, status: response.status, filename,
          mime: revisit ? 'warc/revisit' : type ? type.split(';', 1)[0]!.trim() || undefined : undefined,
          digest: revisit?.profile === SERVER_NOT_MODIFIED ? undefined : digest.slice('sha1:'.length),
          length: members[1]!.length,
          offset: offsets[1]!,
        }) +
        (conversion
          ? cdxjLine({
            url, date: conversion.record.warcHeaders.headers.get('WARC-Date')!, status: undefined, filename, mime: CONVERSION_TYPE,
            digest: conversion.record.warcHeaders.headers.get('WARC-Payload-Digest')!.slice('sha1:'.length),
            length: members[2]!.length,
            offset: offsets[2]!,
          })
          : ''),
    });
  }

  /**
   * Settles with the first write that failed (a full disk): every record after it is refused, so the
   * crawl must stop, leaving what was not archived pending.
   */
  get failed(): Promise<Error> {
    return this.series.failed;
  }

  /** Writes what is pending and closes the WARC and its CDXJ. */
  close(): Promise<void> {
    return this.series.close();
  }

  private revisitOf(response: FetchResponse, digest: string, previous: Original | undefined): Revisit | undefined {
    if (response.status === 304) return { profile: SERVER_NOT_MODIFIED, original: previous };
    if (!deduplicable(response)) return undefined;
    const first = this.payloads.first(digest);
    return first && { profile: IDENTICAL_PAYLOAD, original: first };
  }

  private remember(line: CdxjSummary): void {
    if (line.mime === 'warc/revisit' || line.digest === undefined || !success(line.status)) return;
    this.payloads.add(line.digest, line.url, Date.parse(line.date));
  }
}

/**
 * Only whole, non-empty 2xx payloads are stored once and referred to after: an error page or an empty
 * body is no content worth deduplicating, and a body the server cut is kept as it came.
 */
const deduplicable = ({ status, wire, cutBy }: FetchResponse): boolean => success(status) && wire!.body.length > 0 && cutBy === undefined;

const success = (status: number): boolean => status >= 200 && status < 300;

/**
 * Opens the archive a configuration asks for (`warc-file`), resuming its last file; undefined when
 * it asks for none. The warcinfo says what wrote the files and how.
 *
 * @example
 * const archiving = await archiveOf(config); // { archive, addresses } for createCrawlContext
 */
export async function archiveOf(config: CrawlerConfig): Promise<{ archive: WarcArchive; addresses: Map<string, string> } | undefined> {
  if (config.warcFile === undefined) return undefined;
  const addresses = new Map<string, string>();
  const info = {
    software: `tarantula/${VERSION}`,
    format: 'WARC File Format 1.1',
    conformsTo: 'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
    'http-header-user-agent': config.userAgent,
    robots: 'obey',
  };
  return { archive: await WarcArchive.open({ path: config.warcFile, maxSize: config.warcMaxSize, info, addresses }), addresses };
}

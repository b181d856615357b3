import { cdxjLine, type CdxjSummary } from './cdxj.js';
import { gzipMember } from './gzip-member.js';
import { WarcSeries } from './warc-series.js';
import { exchangeRecords, SERVER_NOT_MODIFIED, warcinfoRecord, type Capture, type Original, type Revisit } from './warc-records.js';

/** What the archive's thread is started with. */
export interface WriterSetup {
  /** PATH of `PATH-00000.warc.gz`, without `.warc.gz`. */
  readonly base: string;
  readonly maxSize: number;
  readonly info: Readonly<Record<string, string>>;
}

/** The CDXJ fields of an exchange's response or revisit that do not depend on where it is written. */
export interface LineFields {
  readonly url: string;
  readonly date: string;
  readonly status: number;
  readonly mime: string | undefined;
  readonly digest: string | undefined;
}

/**
 * One fetch to archive: either the capture itself, whose records the archive's thread builds and
 * deflates, or (a large body) the gzip members already made, so that the body is never copied to
 * that thread whole.
 */
export type ExchangeJob = { readonly id: number; readonly line: LineFields } & (
  | { readonly capture: Capture; readonly payloadDigest: string; readonly revisit: Revisit | undefined }
  | { readonly members: readonly Uint8Array[] }
);

/** A payload archived in full before, as a resume finds it in the CDXJ files. */
export type KnownPayload = readonly [digest: string, first: Original];

/**
 * The writing end of a crawl's archive: builds each fetch's records with warcio, deflates them and
 * appends them to the series with their CDXJ line. Runs on a thread of its own (archive-worker.ts),
 * so that none of it takes the main thread's time.
 *
 * @example
 * const { writer, known } = await WarcWriter.open({ base: 'crawl', maxSize: 1e9, info });
 * await writer.write(job);
 * await writer.close();
 */
export class WarcWriter {
  private constructor(private readonly series: WarcSeries) {}

  /** Opens the series (resuming its last file) and says which payloads its files hold in full. */
  static async open(setup: WriterSetup): Promise<{ writer: WarcWriter; known: KnownPayload[] }> {
    const known = new Map<string, Original>();
    const series = await WarcSeries.open({
      base: setup.base,
      maxSize: setup.maxSize,
      warcinfo: (filename) => gzipMember(warcinfoRecord(filename, setup.info)),
      known: (line) => remember(known, line),
    });
    return { writer: new WarcWriter(series), known: [...known] };
  }

  /** Resolves once the job's records and CDXJ line are written. */
  async write(job: ExchangeJob): Promise<void> {
    const members = 'members' in job
      ? job.members.map((m) => Buffer.from(m.buffer, m.byteOffset, m.byteLength))
      : await Promise.all(exchangeRecords(job.capture, job.payloadDigest, job.revisit).map(gzipMember));
    await this.series.append({
      members,
      lines: (filename, offsets) => cdxjLine({ ...job.line, filename, length: members[1]!.length, offset: offsets[1]! }),
    });
  }

  close(): Promise<void> {
    return this.series.close();
  }
}

/** The CDXJ fields of a response or revisit: a 304's revisit has no payload, hence no digest. */
export function lineFields(url: string, date: string, status: number, contentType: string | undefined, payloadDigest: string, revisit: Revisit | undefined): LineFields {
  return {
    url, date, status,
    mime: revisit ? 'warc/revisit' : contentType ? contentType.split(';', 1)[0]!.trim() || undefined : undefined,
    digest: revisit?.profile === SERVER_NOT_MODIFIED ? undefined : payloadDigest.slice('sha1:'.length),
  };
}

/** Only non-empty 2xx payloads are stored once and referred to after: an error page or an empty body is no content worth deduplicating. */
export const deduplicable = (status: number, length: number): boolean => status >= 200 && status < 300 && length > 0;

function remember(known: Map<string, Original>, line: CdxjSummary): void {
  if (line.mime === 'warc/revisit' || line.digest === undefined || !deduplicable(line.status, 1)) return;
  const digest = `sha1:${line.digest}`;
  if (!known.has(digest)) known.set(digest, { url: line.url, date: line.date });
}

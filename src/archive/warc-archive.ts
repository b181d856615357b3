import { Worker } from 'node:worker_threads';
import type { CrawlerConfig } from '../config/config.js';
import type { FetchResponse, WireExchange } from '../fetch/fetch-document.js';
import { packagePath } from '../package-root.js';
import { VERSION } from '../version.js';
import type { FromWriter, ToWriter } from './archive-worker.js';
import { gzipMember } from './gzip-member.js';
import { exchangeRecords, IDENTICAL_PAYLOAD, SERVER_NOT_MODIFIED, sha1Digest, warcDate, type Capture, type Original, type Revisit } from './warc-records.js';
import { deduplicable, lineFields, type ExchangeJob, type WriterSetup } from './warc-writer.js';

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
 * Above this a body's records are built and deflated here, and only their gzip members go to the
 * archive's thread: posting the body would copy it whole, and it is held here until parsed anyway.
 */
const LARGE = 1 << 20;

/**
 * A crawl's WARC/1.1 archive (SPEC §9): for every fetch a request record and a response record,
 * or a revisit — server-not-modified for a 304 on recrawl, identical-payload-digest for a payload
 * archived before (by SHA-1, across the whole series: on resume the CDXJ files say which payloads
 * are there) — each a gzip member, with a CDXJ line per response or revisit.
 *
 * The records are built, deflated and written on a thread of its own (archive-worker.ts): on the
 * main thread they took a third of its time on the synthetic web, and the main thread is the one
 * that fetches. Here stay the payload digest and the choice of revisit (both cheap), so that the
 * archive's thread needs nothing back but "written". The fetches of one turn of the event loop go
 * over in one message, their bodies copied into one buffer that is moved, not copied again.
 *
 * @example
 * const archive = await WarcArchive.open({ path: 'crawl', maxSize: 1e9, info: { software: 'tarantula/0.1.0' }, addresses });
 * await archive.record('http://www.a.test/', response); // response fetched with `capture: true`
 * await archive.close();
 */
export class WarcArchive {
  /** Payload digest → the first response that had it. */
  private readonly payloads = new Map<string, Original>();
  private readonly waiting = new Map<number, { done: () => void; fail: (err: Error) => void }>();
  private outbox: { job: ExchangeJob; body: Buffer | undefined }[] = [];
  private nextId = 0;
  /** Set once the archive's thread is gone or a write failed: what is on disk after is unknown, so nothing more is written. */
  private failure: Error | undefined;
  private closed: Promise<void> | undefined;
  /** Told when the archive's thread has closed the files (or is gone). */
  private closing: ((err: Error | undefined) => void) | undefined;
  private exited = false;

  private constructor(
    private readonly opts: WarcArchiveOptions,
    private readonly worker: Worker,
  ) {}

  static open(opts: WarcArchiveOptions): Promise<WarcArchive> {
    const setup: WriterSetup = { base: opts.path.replace(/\.warc(\.gz)?$/i, ''), maxSize: opts.maxSize, info: opts.info };
    const worker = new Worker(packagePath('dist', 'archive', 'archive-worker.js'), { workerData: setup });
    const archive = new WarcArchive(opts, worker);
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromWriter) => {
        if (message.type === 'ready') {
          for (const [digest, first] of message.known) archive.payloads.set(digest, first);
          archive.hold();
          resolve(archive);
        } else if (message.type === 'unopened') reject(new Error(message.message));
        else if (message.type === 'written') archive.written(message.ids, message.failed);
        else archive.closing?.(message.message === undefined ? undefined : new Error(`cannot close the WARC: ${message.message}`));
      });
      worker.on('error', (err) => archive.fail(new Error(`the WARC writer failed: ${err.message}`)));
      worker.on('exit', () => {
        archive.exited = true;
        const err = archive.failure ?? new Error('the WARC writer ended');
        reject(err);
        archive.fail(err);
        archive.closing?.(undefined);
      });
    });
  }

  /**
   * Archives one fetch (nothing when it was not captured). `previous` is, for a 304, the capture the
   * server says is unchanged. Resolves once its records and CDXJ line are written.
   */
  async record(url: string, response: FetchResponse, previous?: Original): Promise<void> {
    const wire = response.wire;
    if (wire === undefined) return;
    if (this.failure) throw this.failure;
    const u = new URL(url);
    const ip = this.opts.addresses.get(`${u.hostname.replace(/^\[|\]$/g, '')}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`);
    const date = warcDate(response.startedAt);
    const digest = sha1Digest(wire.body);
    const revisit = this.revisitOf(response, digest, previous);
    // A payload archived in full for the first time: later copies refer to it.
    if (revisit === undefined && deduplicable(response.status, wire.body.length)) this.payloads.set(digest, { url, date });
    const capture: Capture = { url, status: response.status, startedAt: response.startedAt, truncated: response.truncated, wire, ip };
    const line = lineFields(url, date, response.status, response.headers['content-type'], digest, revisit);
    const id = this.nextId++;
    if (revisit === undefined && wire.body.length > LARGE) {
      const members = await Promise.all(exchangeRecords(capture, digest, revisit).map(gzipMember));
      return this.send({ id, line, members }, undefined);
    }
    // A revisit's record holds no body: none is posted.
    const bodyless: WireExchange = { ...wire, body: EMPTY };
    return this.send({ id, line, capture: { ...capture, wire: bodyless }, payloadDigest: digest, revisit }, revisit ? undefined : wire.body);
  }

  /** Waits for every record to be written, then for the archive's thread to close the files. */
  close(): Promise<void> {
    this.closed ??= this.exited
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          this.closing = (err) => (err ? reject(err) : resolve());
          this.hold();
          this.post();
          this.worker.postMessage({ type: 'close' } satisfies ToWriter);
        });
    return this.closed;
  }

  private send(job: ExchangeJob, body: Buffer | undefined): Promise<void> {
    return new Promise((done, fail) => {
      this.waiting.set(job.id, { done, fail });
      if (this.waiting.size === 1) this.hold();
      if (this.outbox.length === 0) setImmediate(() => this.post());
      this.outbox.push({ job, body });
    });
  }

  /** Posts the fetches of this turn: their bodies side by side in one buffer, moved to the archive's thread. */
  private post(): void {
    if (this.outbox.length === 0) return;
    const batch = this.outbox;
    this.outbox = [];
    if (this.failure) {
      for (const { job } of batch) this.fail(this.failure, job.id);
      return;
    }
    const bytes = new ArrayBuffer(batch.reduce((n, b) => n + (b.body?.length ?? 0), 0));
    let at = 0;
    const jobs = batch.map(({ job, body }): ExchangeJob => {
      if (body === undefined || !('capture' in job)) return job;
      const view = new Uint8Array(bytes, at, body.length);
      view.set(body);
      at += body.length;
      return { ...job, capture: { ...job.capture, wire: { ...job.capture.wire, body: view as Buffer } } };
    });
    this.worker.postMessage({ type: 'batch', jobs } satisfies ToWriter, [bytes]);
  }

  private written(ids: readonly number[], failed: readonly (readonly [number, string])[]): void {
    for (const id of ids) {
      this.waiting.get(id)?.done();
      this.waiting.delete(id);
    }
    for (const [id, message] of failed) this.fail(new Error(message), id);
    this.hold();
  }

  /**
   * The archive's thread keeps the process alive only while it has work to finish: records to write
   * or the files to close. Idle, it must not hold the exit of a run that fails before closing it.
   */
  private hold(): void {
    if (this.waiting.size > 0 || this.closing) this.worker.ref();
    else this.worker.unref();
  }

  /** Fails one waiting record, or (no id) every one; every later one fails too. */
  private fail(err: Error, id?: number): void {
    this.failure ??= err;
    for (const [key, { fail }] of this.waiting) if (id === undefined || key === id) fail(id === undefined ? this.failure : err);
    if (id === undefined) this.waiting.clear();
    else this.waiting.delete(id);
    this.hold();
  }

  private revisitOf(response: FetchResponse, digest: string, previous: Original | undefined): Revisit | undefined {
    if (response.status === 304) return { profile: SERVER_NOT_MODIFIED, original: previous };
    if (!deduplicable(response.status, response.wire!.body.length)) return undefined;
    const first = this.payloads.get(digest);
    return first && { profile: IDENTICAL_PAYLOAD, original: first };
  }
}

const EMPTY = Buffer.alloc(0);

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

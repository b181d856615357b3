import type { Writable } from 'node:stream';
import type { IndexFormat } from '../model/config.js';
import { FORMATTERS, HEADERS, type RecordFormatter } from './formats.js';
import { type IndexFileMode, type IndexSink, openFileSink, streamSink } from './index-sink.js';
import type { IndexRecord } from '../model/index-record.js';
import { WriteBatcher } from './write-batcher.js';

export type { IndexFileMode } from './index-sink.js';

/** Options of {@link IndexWriter.open}. */
export interface IndexWriterOptions {
  /** format (IndexFormat). The record format; csv starts with its header row. */
  readonly format: IndexFormat;
  /** mode (IndexFileMode). Default: `'truncate'`. How a file is opened; ignored for streams. */
  readonly mode?: IndexFileMode;
  /** batchSize (number). Default: `256`. Records collected before a write; a shorter batch is written 20 ms after its first record. */
  readonly batchSize?: number;
  /** highWaterMark (number). Default: `1_048_576`. Characters waiting beyond which `write()` returns false. */
  readonly highWaterMark?: number;
  /** onBrokenPipe (() => void). Called once when the reader of a stream went away (EPIPE, e.g. `| head -1`). */
  readonly onBrokenPipe?: () => void;
}

/** Batches larger than this many characters are written at once rather than after 20 ms. */
const BATCH = { delayMs: 20, maxChars: 64 * 1024 };
const BROKEN_PIPE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Whether a stream's error says its reader went away (`| head -1`), not that writing failed. */
export const isBrokenPipe = (err: unknown): boolean => BROKEN_PIPE.has((err as { code?: string } | null)?.code ?? '');

/**
 * Writes index records (SPEC §6) to a file or a stream, each record whole: records are formatted
 * to strings, collected, and written in batches of whole records, so a crash never leaves half a
 * record beyond the last write. `write()` is synchronous and cheap; it returns false when the
 * backlog is above `highWaterMark` (then `await drain()`, as with a Writable). When the reader of a
 * stream goes away (EPIPE), writing stops quietly: `onBrokenPipe` is called, `closed` resolves, and
 * later records are dropped, so `crawl | head -1` can stop the crawl and exit 0. Any other write
 * error is thrown by the next `write()` and by `close()`.
 *
 * @example
 * const index = await IndexWriter.open('repo/index.txt', { format: 'seed', mode: 'append' });
 * index.write(record);
 * await index.close(); // flushed and fsynced
 *
 * const out = await IndexWriter.open(process.stdout, { format: 'jsonl', onBrokenPipe: () => stop() });
 */
export class IndexWriter {
  /** Resolves when the writer takes no more records: after `close()`, or when the pipe broke. */
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;
  private readonly batcher: WriteBatcher;
  private closing: Promise<void> | undefined;
  private broken = false;
  private failure: unknown;
  private readonly highWaterMark: number;

  private constructor(
    private readonly sink: IndexSink,
    private readonly format: RecordFormatter,
    private readonly options: IndexWriterOptions,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.batcher = new WriteBatcher((text) => this.writeBatch(text), { ...BATCH, maxItems: options.batchSize ?? 256 });
    this.highWaterMark = options.highWaterMark ?? 1_048_576;
  }

  /** Opens a file (creating or continuing it as `mode` says) or wraps a stream. Rejects if the file cannot be opened. */
  static async open(target: string | Writable, options: IndexWriterOptions): Promise<IndexWriter> {
    const header = HEADERS[options.format];
    if (typeof target === 'string') {
      const { sink, empty } = await openFileSink(target, options.mode ?? 'truncate');
      const writer = new IndexWriter(sink, FORMATTERS[options.format], options);
      if (empty && header !== '') writer.batcher.add(header);
      return writer;
    }
    const writer = new IndexWriter(streamSink(target), FORMATTERS[options.format], options);
    // stays attached: an EPIPE that arrives after close() must not become an uncaught exception
    target.on('error', (err) => writer.fail(err));
    if (header !== '') writer.batcher.add(header);
    return writer;
  }

  /** Queues one record; false when the backlog is above the high-water mark, or the pipe broke. */
  write(rec: IndexRecord): boolean {
    if (this.failure !== undefined) throw this.failure;
    if (this.broken) return false;
    if (this.closing !== undefined) throw new Error('IndexWriter: write after close');
    const text = this.format(rec);
    if (text !== '') this.batcher.add(text);
    return this.batcher.pendingChars < this.highWaterMark;
  }

  /** Resolves once every record queued so far has been handed to the file or stream. */
  drain(): Promise<void> {
    return this.batcher.flush();
  }

  /**
   * Writes what is queued, then fsyncs a file and, in atomic mode, renames `FILE.tmp` over FILE.
   * `commit: false` (an interrupted recrawl) flushes and fsyncs but leaves FILE as it was and
   * `FILE.tmp` beside it. Idempotent: later calls return the first call's promise.
   */
  close(commit = true): Promise<void> {
    this.closing ??= this.finish(commit);
    return this.closing;
  }

  private async finish(commit: boolean): Promise<void> {
    try {
      await this.drain();
      if (this.failure === undefined && !this.broken) await this.sink.finish(commit).catch((err: unknown) => this.fail(err));
      if (this.failure !== undefined) {
        await this.sink.abort();
        throw this.failure;
      }
    } finally {
      this.resolveClosed();
    }
  }

  private async writeBatch(text: string): Promise<void> {
    if (this.broken || this.failure !== undefined) return;
    try {
      await this.sink.write(text);
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    if (this.broken || this.failure !== undefined) return;
    if (isBrokenPipe(err)) {
      this.broken = true;
      this.batcher.discard();
      this.resolveClosed();
      this.options.onBrokenPipe?.();
    } else {
      this.failure = err;
    }
  }
}

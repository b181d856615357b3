import { open, type FileHandle } from 'node:fs/promises';

/** Every few seconds the journal is fsynced, so a power cut loses at most that much work. */
const SYNC_EVERY_MS = 5_000;
/**
 * Lines wait this long for company before they are written: one write per page would cost a
 * thread-pool round trip each, and a kill loses no more than a resume re-admits (the links of the
 * last documents, see crawl-state).
 */
const BATCH_MS = 20;
/** A batch this large (characters) is written at once. */
const BATCH_CHARS = 256 * 1024;

/**
 * An append-only file of one JSON array per line, written in batches: lines queued within a few
 * milliseconds go out in one write, in order, each whole. A kill loses only the last unwritten
 * batch; a torn last line is ignored when the journal is read back.
 *
 * @example
 * const j = await JournalWriter.open('repo/.tarantula/journal.jsonl');
 * j.append(['a', 'http://a.test/', 0]); await j.close();
 */
export class JournalWriter {
  private queue: string[] = [];
  private queuedChars = 0;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly writeNow = (): void => {
    this.timer = undefined;
    void this.writeQueued();
  };
  private lastSync = Date.now();
  private failure: unknown;

  private constructor(private readonly fh: FileHandle) {}

  static async open(path: string): Promise<JournalWriter> {
    return new JournalWriter(await open(path, 'a'));
  }

  append(entry: readonly unknown[]): void {
    if (this.failure !== undefined) throw this.failure;
    const line = JSON.stringify(entry);
    this.queue.push(line);
    this.queuedChars += line.length;
    // While a write is under way, its end schedules the next.
    if (this.writing === undefined) this.schedule();
  }

  /** Resolves once every line appended so far is written. */
  async flush(): Promise<void> {
    while (this.writing !== undefined || this.queue.length > 0) await this.writeQueued();
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
    await this.fh.sync();
    await this.fh.close();
    if (this.failure !== undefined) throw this.failure;
  }

  private schedule(): void {
    if (this.queuedChars < BATCH_CHARS) this.timer ??= setTimeout(this.writeNow, BATCH_MS);
    else {
      clearTimeout(this.timer);
      this.writeNow();
    }
  }

  /** Starts writing what is queued unless a write is under way; resolves when that write ends. */
  private writeQueued(): Promise<void> {
    if (this.writing === undefined && this.queue.length > 0) {
      const text = this.queue.join('\n') + '\n';
      this.queue = [];
      this.queuedChars = 0;
      this.writing = this.write(text).finally(() => {
        this.writing = undefined;
        if (this.queue.length > 0) this.schedule();
      });
    }
    return this.writing ?? Promise.resolve();
  }

  private async write(text: string): Promise<void> {
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let done = 0; done < bytes.length; ) done += (await this.fh.write(bytes, done)).bytesWritten;
      if (Date.now() - this.lastSync > SYNC_EVERY_MS) {
        this.lastSync = Date.now();
        await this.fh.datasync();
      }
    } catch (err) {
      this.failure = err;
    }
  }
}

import { open, type FileHandle } from 'node:fs/promises';
import { WriteBatcher } from '../output/write-batcher.js';

/** Every few seconds the journal is fsynced, so a power cut loses at most that much work. */
const SYNC_EVERY_MS = 5_000;
/**
 * Lines wait this long for company before they are written: one write per page would cost a
 * thread-pool round trip each, and a kill loses no more than a resume re-admits (the links of the
 * last documents, see crawl-state).
 */
const BATCH = { delayMs: 20, maxChars: 256 * 1024 };

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
  private readonly batcher = new WriteBatcher((text) => this.write(text), BATCH);
  private lastSync = Date.now();
  private failure: unknown;

  private constructor(private readonly fh: FileHandle) {}

  static async open(path: string): Promise<JournalWriter> {
    return new JournalWriter(await open(path, 'a'));
  }

  /** Appends one entry; it is written with the next group commit. */
  append(entry: readonly unknown[]): void {
    if (this.failure !== undefined) throw this.failure;
    this.batcher.add(JSON.stringify(entry) + '\n');
  }

  /** Resolves once every line appended so far is written. */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  /** Writes what is pending and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    await this.fh.sync();
    await this.fh.close();
    if (this.failure !== undefined) throw this.failure;
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

import { open, type FileHandle } from 'node:fs/promises';

/** Every few seconds the journal is fsynced, so a power cut loses at most that much work. */
const SYNC_EVERY_MS = 5_000;

/**
 * An append-only file of one JSON array per line, written in batches: lines queued in one turn of
 * the event loop go out in one write, in order, each whole. A kill loses only the last unwritten
 * batch; a torn last line is ignored when the journal is read back.
 *
 * @example
 * const j = await JournalWriter.open('repo/.tarantula/journal.jsonl');
 * j.append(['a', 'http://a.test/', 0]); await j.close();
 */
export class JournalWriter {
  private queue: string[] = [];
  private writing: Promise<void> | undefined;
  private tick: NodeJS.Immediate | undefined;
  private lastSync = Date.now();
  private failure: unknown;

  private constructor(private readonly fh: FileHandle) {}

  static async open(path: string): Promise<JournalWriter> {
    return new JournalWriter(await open(path, 'a'));
  }

  append(entry: readonly unknown[]): void {
    if (this.failure !== undefined) throw this.failure;
    this.queue.push(JSON.stringify(entry));
    this.tick ??= setImmediate(() => {
      this.tick = undefined;
      void this.flush();
    });
  }

  /** Resolves once every line appended so far is written. */
  async flush(): Promise<void> {
    while (this.writing !== undefined || this.queue.length > 0) {
      if (this.writing === undefined) {
        const text = this.queue.join('\n') + '\n';
        this.queue = [];
        this.writing = this.write(text).finally(() => (this.writing = undefined));
      }
      await this.writing;
    }
  }

  async close(): Promise<void> {
    if (this.tick !== undefined) clearImmediate(this.tick);
    this.tick = undefined;
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

/** When a batch goes out. */
export interface BatchLimits {
  /** How long a short batch waits for company, in milliseconds. */
  readonly delayMs: number;
  /** A batch of this many bytes goes at once. */
  readonly maxBytes: number;
  /** A batch of this many texts goes at once. Default: no limit. */
  readonly maxItems?: number;
}

/**
 * Texts handed to `write` in batches of UTF-8 bytes, in order, one write at a time: a short batch
 * waits `delayMs` for company, a long one goes at once, and texts added during a write wait for its
 * end. One write per batch rather than per text: each costs a system call or a thread-pool round
 * trip. Each text is encoded as it is added, into a buffer outside the JS heap: a batch of strings
 * waiting its 20 ms outlived young-generation collections, which copied and then promoted every
 * one of them (a broad crawl journals 15 URLs a page). `write` must not reject: its caller records
 * its own failures, and it must be done with the bytes when it resolves (their buffer is reused).
 *
 * @example
 * const batcher = new WriteBatcher((bytes) => fh.write(bytes).then(() => undefined), { delayMs: 20, maxBytes: 65_536 });
 * batcher.add('line 1\n'); batcher.add('line 2\n'); // one write, 20 ms later
 * await batcher.flush();
 */
export class WriteBatcher {
  /** Filled buffers that wait behind a write under way (a slow reader), then the one being filled. */
  private full: Buffer[] = [];
  private chunk: Buffer;
  private used = 0;
  private bytes = 0;
  private items = 0;
  /** A buffer whose write ended, to be filled again. */
  private spare: Buffer | undefined;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly writeNow = (): void => void this.writeBatch();

  constructor(
    private readonly write: (bytes: Buffer) => Promise<void>,
    private readonly limits: BatchLimits,
  ) {
    this.chunk = Buffer.allocUnsafe(this.chunkSize);
  }

  /** Bytes added and not yet handed to `write`. */
  get pendingBytes(): number {
    return this.bytes;
  }

  add(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8: the exact length is needed only near the end.
    if (this.used + 3 * text.length > this.chunk.length && this.used + Buffer.byteLength(text) > this.chunk.length) this.nextChunk(Buffer.byteLength(text));
    const n = this.chunk.write(text, this.used, 'utf8');
    this.used += n;
    this.bytes += n;
    this.items++;
    if (this.writing === undefined) this.schedule();
  }

  /** Resolves once every text added so far is written. */
  async flush(): Promise<void> {
    while (this.writing !== undefined || this.bytes > 0) await this.writeBatch();
  }

  /** Forgets what waits: nobody will read it any more. */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.full = [];
    this.used = 0;
    this.bytes = 0;
    this.items = 0;
  }

  /** Twice a batch's bytes, so a full batch goes out from the buffer it filled without moving. */
  private get chunkSize(): number {
    return Math.max(4096, 2 * this.limits.maxBytes);
  }

  /** Sets the filled part of the buffer aside and starts a new one of at least `need` bytes. */
  private nextChunk(need: number): void {
    if (this.used > 0) this.full.push(this.chunk.subarray(0, this.used));
    const size = Math.max(need, this.chunkSize);
    const spare = this.spare;
    this.spare = undefined;
    this.chunk = spare !== undefined && spare.length >= size ? spare : Buffer.allocUnsafe(size);
    this.used = 0;
  }

  private schedule(): void {
    const full = this.bytes >= this.limits.maxBytes || this.items >= (this.limits.maxItems ?? Infinity);
    if (full) this.writeNow();
    else this.timer ??= setTimeout(this.writeNow, this.limits.delayMs);
  }

  /** Starts writing what waits unless a write is under way; resolves when that write ends. */
  private writeBatch(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing === undefined && this.bytes > 0) {
      const filled = this.chunk;
      const parts = this.used > 0 ? [...this.full, filled.subarray(0, this.used)] : this.full;
      const batch = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      // The buffer being filled goes out with its bytes: the next texts go to the spare one.
      this.full = [];
      this.bytes = 0;
      this.items = 0;
      this.used = 0;
      this.chunk = this.spare ?? Buffer.allocUnsafe(this.chunkSize);
      this.spare = undefined;
      this.writing = this.write(batch).finally(() => {
        this.writing = undefined;
        if (filled.length === this.chunkSize) this.spare = filled;
        if (this.bytes > 0) this.schedule();
      });
    }
    return this.writing ?? Promise.resolve();
  }
}

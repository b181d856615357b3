/** When a batch goes out. */
export interface BatchLimits {
  /** How long a short batch waits for company, in milliseconds. */
  readonly delayMs: number;
  /** A batch of this many characters goes at once. */
  readonly maxChars: number;
  /** A batch of this many texts goes at once. Default: no limit. */
  readonly maxItems?: number;
}

/**
 * Texts handed to `write` in batches, in order, one write at a time: a short batch waits
 * `delayMs` for company, a long one goes at once, and texts added during a write wait for its end.
 * One write per batch rather than per text: each costs a system call or a thread-pool round trip.
 * `write` must not reject: its caller records its own failures.
 *
 * @example
 * const batcher = new WriteBatcher((text) => fh.appendFile(text), { delayMs: 20, maxChars: 65_536 });
 * batcher.add('line 1\n'); batcher.add('line 2\n'); // one write, 20 ms later
 * await batcher.flush();
 */
export class WriteBatcher {
  private pending: string[] = [];
  private chars = 0;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly writeNow = (): void => void this.writeBatch();

  constructor(
    private readonly write: (text: string) => Promise<void>,
    private readonly limits: BatchLimits,
  ) {}

  /** Characters added and not yet handed to `write`. */
  get pendingChars(): number {
    return this.chars;
  }

  add(text: string): void {
    this.pending.push(text);
    this.chars += text.length;
    if (this.writing === undefined) this.schedule();
  }

  /** Resolves once every text added so far is written. */
  async flush(): Promise<void> {
    while (this.writing !== undefined || this.pending.length > 0) await this.writeBatch();
  }

  /** Forgets what waits: nobody will read it any more. */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.chars = 0;
  }

  private schedule(): void {
    const full = this.chars >= this.limits.maxChars || this.pending.length >= (this.limits.maxItems ?? Infinity);
    if (full) this.writeNow();
    else this.timer ??= setTimeout(this.writeNow, this.limits.delayMs);
  }

  /** Starts writing what waits unless a write is under way; resolves when that write ends. */
  private writeBatch(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing === undefined && this.pending.length > 0) {
      const text = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join('');
      this.pending = [];
      this.chars = 0;
      this.writing = this.write(text).finally(() => {
        this.writing = undefined;
        if (this.pending.length > 0) this.schedule();
      });
    }
    return this.writing ?? Promise.resolve();
  }
}

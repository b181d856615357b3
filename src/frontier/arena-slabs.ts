/** Bytes of one slab. */
const SLAB = 256 * 1024;
/** Blocks are multiples of this many bytes. */
const GRAIN = 32;

/**
 * Blocks of bytes carved out of a few big buffers, for the arenas of the frontier's small queues. A
 * buffer of its own costs some 500 bytes beyond its bytes (its two JS objects, V8's record of its
 * memory, malloc's header), more than most small queues hold; a block costs its bytes. A block is
 * named by a number, its slab and its offset; a freed block goes to a list by size, for the next
 * block of that size. Slabs stay: a crawl that once held many hosts holds them for the hosts to come.
 *
 * @example
 * const slabs = new ArenaSlabs();
 * const block = slabs.alloc(100); // 128 bytes at slabs.offset(block) of slabs.slab(block)
 * slabs.free(block, 128);
 */
export class ArenaSlabs {
  /** The largest block a slab gives: an arena above it is a buffer of its own. */
  static readonly MAX_BLOCK = 4096;
  private readonly slabs: Buffer[] = [];
  /** Freed blocks, by size in grains. */
  private readonly freed: number[][] = [];
  /** Where the next new block starts in the last slab. */
  private cursor = SLAB;

  /** The size of the block {@link alloc} gives for `bytes` (at most {@link MAX_BLOCK}). */
  static size(bytes: number): number {
    return Math.ceil(bytes / GRAIN) * GRAIN;
  }

  /** A block of {@link size}(`bytes`) bytes. */
  alloc(bytes: number): number {
    const size = ArenaSlabs.size(bytes);
    const reused = this.freed[size / GRAIN]?.pop();
    if (reused !== undefined) return reused;
    if (this.cursor + size > SLAB) {
      this.slabs.push(Buffer.allocUnsafeSlow(SLAB));
      this.cursor = 0;
    }
    const block = (this.slabs.length - 1) * SLAB + this.cursor;
    this.cursor += size;
    return block;
  }

  /** Gives a block of `size` bytes back. */
  free(block: number, size: number): void {
    (this.freed[size / GRAIN] ??= []).push(block);
  }

  /** The buffer a block is in. */
  slab(block: number): Buffer {
    return this.slabs[Math.floor(block / SLAB)]!;
  }

  /** Where a block starts in its slab. */
  offset(block: number): number {
    return block % SLAB;
  }
}

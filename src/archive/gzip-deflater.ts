import { constants, createGzip, gzipSync, type Gzip } from 'node:zlib';

/**
 * What node:zlib's synchronous calls do with a stream's native handle (`processChunkSync` in Node's
 * lib/zlib.js, as in Node 20): one `writeSync` of the input into an output buffer, the
 * room left in the output and the input left unread reported in `_writeState`. Node closes the
 * handle at the end of every such call; kept, it is reset instead (`deflateReset`), which starts a new
 * gzip member with the same memory.
 */
interface NativeGzip {
  readonly _handle?: {
    writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
    reset(): void;
  };
  readonly _writeState?: Uint32Array;
}

/** zlib's deflateBound for the default window and memLevel, plus the gzip header and trailer. */
const bound = (n: number): number => n + (n >>> 12) + (n >>> 14) + (n >>> 25) + 7 + 18;

/**
 * Deflates inputs of up to `largest` bytes into one gzip member each, on one zlib stream kept for
 * all of them. `gzipSync` sets up a stream per call (about 300 KB that zlib allocates, and that V8
 * counts as external memory until the stream is collected) and tears it down after: for the two
 * records of a 10 KB page that was a sixth of the archive's CPU (`npx tsx bench/warc-archive.ts`:
 * 378–384 against 303–342 µs a fetch). A member decompresses to its input alone; its bytes may
 * differ from `gzipSync`'s by the matches the kept window's hash finds. Where a Node no longer
 * exposes the handle, every member is `gzipSync`'s.
 *
 * @example
 * const deflater = new GzipDeflater({ level: 1 }, 1 << 20);
 * gunzipSync(deflater.gzip(Buffer.from('record'))).toString() //=> 'record'
 */
export class GzipDeflater {
  private stream: Gzip & NativeGzip;
  private readonly out: Buffer;

  constructor(
    private readonly zlib: { readonly level: number },
    private readonly largest: number,
  ) {
    this.stream = this.open();
    this.out = Buffer.allocUnsafe(bound(largest));
  }

  /** One gzip member of `input`, in a buffer of its own (a slice of Node's pool when small). */
  gzip(input: Uint8Array): Buffer {
    if (input.length > this.largest) throw new RangeError(`GzipDeflater: ${input.length} bytes is more than the ${this.largest} it was made for`);
    const { _handle: handle, _writeState: state } = this.stream;
    if (handle === undefined || state === undefined) return gzipSync(input, this.zlib);
    handle.writeSync(constants.Z_FINISH, input, 0, input.length, this.out, 0, this.out.length);
    if (this.stream.destroyed) {
      // zlib reported an error: the stream is closed, so the next member starts on a new one.
      const error = this.stream.errored ?? new Error('zlib failed');
      this.stream = this.open();
      throw error;
    }
    const length = this.out.length - state[0]!;
    handle.reset();
    return Buffer.from(this.out.subarray(0, length));
  }

  private open(): Gzip & NativeGzip {
    // An error is thrown by gzip(); without a listener the stream would also raise it as uncaught.
    return createGzip(this.zlib).on('error', () => {}) as Gzip & NativeGzip;
  }
}

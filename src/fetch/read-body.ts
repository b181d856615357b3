import { FetchError } from './fetch-error.js';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type BrotliDecompress, type Gunzip, type Inflate, type InflateRaw } from 'node:zlib';

/** The caps of one body read. 0 = no limit. */
export interface BodyLimits {
  /** Bytes read from the network (before Content-Encoding is undone). */
  readonly maxWire: number;
  /** Bytes after Content-Encoding is undone: what stops a gzip/deflate/br bomb. */
  readonly maxDecoded: number;
}

export interface DecodedBody {
  readonly body: Buffer;
  /** A cap was hit: the body was cut there, and the rest was never downloaded. */
  readonly truncated: boolean;
  /**
   * The bytes as they came off the wire, Content-Encoding not undone: only when asked for (an
   * archive wants them) and only when a coding was undone; otherwise `body` is the wire's bytes.
   */
  readonly wire?: Buffer;
  /**
   * The bytes are not what their Content-Encoding says. Only with the wire bytes kept: the body is
   * then read on to its end (or the wire cap) undecoded, so that an archive has what the server
   * sent; without them `result` rejects with this error at once.
   */
  readonly undecodable?: FetchError;
}

type Decoder = Gunzip | Inflate | InflateRaw | BrotliDecompress;

const CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/**
 * Reads a response body from the chunks pushed into it as they arrive, undoing its Content-Encoding
 * (gzip, deflate, br) on the way, and asks for no more as soon as either cap is hit — so a 1 GB gzip
 * bomb costs the cap and a few kilobytes of network, never the gigabyte. A body cut short decodes
 * as far as it goes. `result` rejects with a `bad-encoding` {@link FetchError} when the bytes are
 * not what the encoding says (or, keeping the wire bytes, resolves with it as `undecodable`), and
 * with the error given to `fail` when the download fails.
 *
 * @example
 * const reader = new BodyReader('gzip', { maxWire: 10 << 20, maxDecoded: 50 << 20 }, resumeDownload);
 * reader.push(chunk); // as each chunk arrives; false: wait for resumeDownload(), or stop when reader.stopped
 * reader.end();
 * await reader.result //=> { body: <Buffer ...>, truncated: false }
 */
export class BodyReader {
  /** Settles once: when the body has ended, when a cap is hit, or when it cannot be read. */
  readonly result: Promise<DecodedBody>;
  private readonly coding: string;
  private readonly decoding: boolean;
  private readonly out: CappedBuffer;
  /** The encoded bytes, kept beside the decoded ones when the caller wants them (keepWire). */
  private readonly raw: CappedBuffer | undefined;
  private decoder: Decoder | undefined;
  private undecodable: FetchError | undefined;
  private wire = 0;
  private cut = false;
  private ending = false;
  private settled = false;
  private resolve!: (body: DecodedBody) => void;
  private reject!: (err: unknown) => void;

  /** `resume` is called when the reader has room again after `push` said to wait; `keepWire` keeps the encoded bytes too. */
  constructor(
    encoding: string | undefined,
    private readonly limits: BodyLimits,
    private readonly resume: () => void,
    keepWire = false,
  ) {
    this.coding = (encoding ?? '').trim().toLowerCase();
    this.decoding = CODINGS.has(this.coding);
    // Without decoding, the wire cap is the body's cap: CappedBuffer needs it only to size its buffer.
    this.out = new CappedBuffer(this.decoding ? limits.maxDecoded : limits.maxWire);
    if (keepWire && this.decoding) this.raw = new CappedBuffer(limits.maxWire);
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** No more bytes are wanted: a cap was hit, the body ended or failed. The download can be dropped. */
  get stopped(): boolean {
    return this.ending || this.settled;
  }

  /**
   * Takes the next chunk off the wire. False: send no more until `resume` is called — or ever, once
   * {@link stopped}.
   */
  push(chunk: Buffer): boolean {
    if (this.stopped) return false; // the decoder filled the cap while this chunk was on its way
    let piece = chunk;
    if (this.limits.maxWire > 0 && this.wire + piece.length > this.limits.maxWire) {
      piece = piece.subarray(0, this.limits.maxWire - this.wire);
      this.cut = true;
    }
    this.wire += piece.length;
    if (!this.decoding) this.out.push(piece);
    else {
      this.raw?.push(piece);
      const decoder = this.undecodable ? undefined : (this.decoder ??= this.openDecoder(piece));
      if (decoder && !decoder.write(piece) && !this.cut) {
        decoder.once('drain', this.resume);
        return false;
      }
    }
    if (this.cut) this.end();
    return !this.stopped;
  }

  /** The body is all there: `result` resolves once what the decoder holds is decoded. */
  end(): void {
    if (this.stopped) return;
    this.ending = true;
    if (this.decoder === undefined || this.undecodable) return this.finish();
    this.decoder.on('end', this.finish).on('close', this.finish);
    this.decoder.end();
  }

  /** The bytes read off the wire so far, Content-Encoding not undone (those of a download that failed, for an archive). */
  received(): Buffer {
    return (this.raw ?? this.out).concat();
  }

  /** The download failed: `result` rejects with `err`, unless it has settled already. */
  fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.decoder?.destroy();
    this.reject(err);
  }

  private readonly finish = (): void => {
    if (this.settled) return;
    this.settled = true;
    this.decoder?.destroy();
    const truncated = this.cut || this.out.full;
    const undecodable = this.undecodable ? { undecodable: this.undecodable } : {};
    this.resolve(this.raw ? { body: this.out.concat(), truncated, wire: this.raw.concat(), ...undecodable } : { body: this.out.concat(), truncated });
  };

  private notDecodable(err: FetchError): void {
    if (this.raw === undefined) return this.fail(err);
    if (this.undecodable) return;
    this.undecodable = err;
    this.decoder?.destroy();
    // The push that is waiting for the decoder's drain would wait for ever: the download goes on without it.
    this.resume();
  }

  private openDecoder(first: Buffer): Decoder {
    const coding = this.coding;
    // Flushing at the end (not finishing) decodes what a cut stream holds instead of failing on it.
    const zlib = { finishFlush: constants.Z_SYNC_FLUSH };
    const decoder =
      coding === 'br'
        ? createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH })
        : coding === 'deflate' && !isZlibHeader(first)
          ? createInflateRaw(zlib) // "deflate" is zlib-wrapped by the standard, but some servers send raw deflate
          : coding === 'deflate'
            ? createInflate(zlib)
            : createGunzip(zlib);
    decoder.on('data', (chunk: Buffer) => {
      if (this.out.push(chunk)) this.finish(); // the cap is reached: stop inflating
    });
    decoder.on('error', (err) => this.notDecodable(new FetchError('bad-encoding', `cannot decode ${coding} body: ${err.message}`, 'give-up')));
    return decoder;
  }
}

/** RFC 1950: compression method 8 and a header checksum divisible by 31. */
function isZlibHeader(b: Buffer): boolean {
  return b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;
}

/** Below this, a body is kept as the chunks that came and joined once at the end. */
const SMALL = 256 * 1024;

/**
 * Chunks up to a cap (0 = none); `push` says when the cap was passed, and keeps only what fits.
 * A large body is copied once into one buffer of the cap's size, whose pages are only committed as
 * they are written: joining chunks at the end would hold the body twice at its peak (100 MB for a
 * bomb cut at 50 MB), and a body cut at the cap comes out as a whole buffer, transferable as it is.
 */
class CappedBuffer {
  private parts: Buffer[] = [];
  private big: Buffer | undefined;
  private size = 0;
  full = false;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): boolean {
    if (this.full) return true;
    let piece = chunk;
    if (this.cap > 0 && this.size + piece.length > this.cap) {
      piece = piece.subarray(0, this.cap - this.size);
      this.full = true;
    }
    if (this.big === undefined && this.size + piece.length <= SMALL) this.parts.push(piece);
    else {
      this.reserve(this.size + piece.length);
      piece.copy(this.big!, this.size);
    }
    this.size += piece.length;
    return this.full;
  }

  concat(): Buffer {
    if (this.big !== undefined) return this.size === this.big.length ? this.big : this.big.subarray(0, this.size);
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
  }

  private reserve(needed: number): void {
    if (this.big !== undefined && needed <= this.big.length) return;
    const room = this.cap > 0 ? this.cap : Math.max(needed, 2 * (this.big?.length ?? SMALL));
    const big = Buffer.allocUnsafeSlow(room);
    if (this.big !== undefined) this.big.copy(big, 0, 0, this.size);
    else Buffer.concat(this.parts, this.size).copy(big);
    this.big = big;
    this.parts = [];
  }
}

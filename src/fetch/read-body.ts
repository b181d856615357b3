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
}

/** A response body: chunks as they arrive; leaving the loop early (break) drops the connection. */
export type BodySource = AsyncIterable<Buffer>;

type Decoder = Gunzip | Inflate | InflateRaw | BrotliDecompress;

const CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/**
 * Reads a response body as it streams in, undoing its Content-Encoding (gzip, deflate, br) on the
 * way, and stops downloading as soon as either cap is hit — so a 1 GB gzip bomb costs the cap and a
 * few kilobytes of network, never the gigabyte. A body cut short decodes as far as it goes.
 * Rejects with a `bad-encoding` {@link FetchError} when the bytes are not what the encoding says,
 * and with the network's error when the download fails.
 *
 * @example
 * await readBody(res.body, 'gzip', { maxWire: 10 << 20, maxDecoded: 50 << 20 }) //=> { body: <Buffer ...>, truncated: false }
 */
export async function readBody(source: BodySource, encoding: string | undefined, limits: BodyLimits): Promise<DecodedBody> {
  const coding = (encoding ?? '').trim().toLowerCase();
  const decoding = CODINGS.has(coding);
  // Without decoding, the wire cap is the body's cap: CappedBuffer needs it only to size its buffer.
  const out = new CappedBuffer(decoding ? limits.maxDecoded : limits.maxWire);
  let decoder: Decoder | undefined;
  let failure: FetchError | undefined;
  let wire = 0;
  let cut = false;
  for await (const chunk of source) {
    if (out.full || failure) break; // the decoder filled the cap while this chunk was on its way
    let piece = chunk;
    if (limits.maxWire > 0 && wire + piece.length > limits.maxWire) {
      piece = piece.subarray(0, limits.maxWire - wire);
      cut = true;
    }
    wire += piece.length;
    if (!decoding) out.push(piece);
    else {
      decoder ??= openDecoder(coding, piece, out, (err) => (failure ??= new FetchError('bad-encoding', `cannot decode ${coding} body: ${err.message}`, 'give-up')));
      if (!decoder.write(piece)) await drained(decoder);
    }
    if (cut || out.full || failure) break; // leaving the loop destroys the body: nothing more is downloaded
  }
  if (decoder !== undefined) {
    if (!out.full && failure === undefined) await ended(decoder);
    decoder.destroy();
  }
  if (failure !== undefined && !out.full) throw failure;
  return { body: out.concat(), truncated: cut || out.full };
}

function openDecoder(coding: string, first: Buffer, out: CappedBuffer, onError: (err: Error) => void): Decoder {
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
    if (out.push(chunk)) decoder.destroy(); // the cap is reached: stop inflating
  });
  decoder.on('error', onError);
  return decoder;
}

/** RFC 1950: compression method 8 and a header checksum divisible by 31. */
function isZlibHeader(b: Buffer): boolean {
  return b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;
}

function drained(decoder: Decoder): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      decoder.off('drain', done).off('close', done);
      resolve();
    };
    decoder.on('drain', done).on('close', done);
  });
}

function ended(decoder: Decoder): Promise<void> {
  return new Promise((resolve) => {
    decoder.on('end', resolve).on('close', resolve);
    decoder.end();
  });
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

import { promisify } from 'node:util';
import { brotliDecompress, constants, gunzip, inflate, inflateRaw, type ZlibOptions, type BrotliOptions } from 'node:zlib';

const gunzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gunzip);
const inflateAsync = promisify<Buffer, ZlibOptions, Buffer>(inflate);
const inflateRawAsync = promisify<Buffer, ZlibOptions, Buffer>(inflateRaw);
const brotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliDecompress);

export interface Decoded {
  readonly body: Buffer;
  /** The decoded body hit the cap (a compression bomb, or a huge document) and was cut there. */
  readonly truncated: boolean;
}

/**
 * Undoes a Content-Encoding (gzip, deflate, br) with a cap on the decoded size, so a small gzip
 * bomb cannot inflate into gigabytes. Runs on libuv's thread pool, off the event loop.
 * A cut body (truncated download) yields what could be decoded.
 *
 * @example
 * await decodeContent(gzipSync('hi'), 'gzip', 1 << 20) //=> { body: <Buffer 68 69>, truncated: false }
 */
export async function decodeContent(raw: Buffer, encoding: string | undefined, maxDecoded: number): Promise<Decoded> {
  const coding = (encoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return { body: raw, truncated: false };
  const maxOutputLength = maxDecoded > 0 ? maxDecoded : undefined;
  const zopts: ZlibOptions = { finishFlush: constants.Z_SYNC_FLUSH, ...(maxOutputLength ? { maxOutputLength } : {}) };
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return { body: await gunzipAsync(raw, zopts), truncated: false };
    // "deflate" is zlib-wrapped by the standard, but some servers send raw deflate.
    if (coding === 'deflate') return { body: await ((raw[0]! & 0x0f) === 8 ? inflateAsync : inflateRawAsync)(raw, zopts), truncated: false };
    if (coding === 'br')
      return {
        body: await brotliAsync(raw, { finishFlush: constants.BROTLI_OPERATION_FLUSH, ...(maxOutputLength ? { maxOutputLength } : {}) }),
        truncated: false,
      };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return decodeCapped(raw, coding, maxDecoded);
    throw err;
  }
  return { body: raw, truncated: false };
}

/** Decodes only up to the cap: the first `maxDecoded` bytes of what the bomb would have produced. */
async function decodeCapped(raw: Buffer, coding: string, maxDecoded: number): Promise<Decoded> {
  const { createGunzip, createInflate, createInflateRaw, createBrotliDecompress } = await import('node:zlib');
  const stream =
    coding === 'br' ? createBrotliDecompress() : coding === 'deflate' ? ((raw[0]! & 0x0f) === 8 ? createInflate() : createInflateRaw()) : createGunzip();
  const parts: Buffer[] = [];
  let size = 0;
  stream.end(raw);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxDecoded - size;
    parts.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(room, chunk.length);
    if (size >= maxDecoded) break;
  }
  stream.destroy();
  return { body: Buffer.concat(parts, size), truncated: true };
}

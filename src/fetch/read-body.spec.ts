import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createDeflate, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyReader, type BodyLimits, type DecodedBody } from './read-body.js';
import { FetchError } from './fetch-error.js';

const TEXT = Buffer.from('<!DOCTYPE html><title>t</title>' + 'tarantula '.repeat(5000));

/** The buffer in chunks of `size`, as a network would deliver it. */
function chunks(buf: Buffer, size = 1000): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

/**
 * Pushes a source's chunks into a reader as undici does: holding on when it says to wait until it
 * resumes, and dropping the source (which then makes no more) once it wants nothing more.
 */
async function read(source: Iterable<Buffer> | AsyncIterable<Buffer>, coding: string | undefined, limits: BodyLimits, keepWire = false): Promise<DecodedBody> {
  let resume = (): void => {};
  const reader = new BodyReader(coding, limits, () => resume(), keepWire);
  for await (const chunk of source) {
    if (reader.push(chunk)) continue;
    if (reader.stopped) break;
    await new Promise<void>((resolve) => {
      resume = resolve;
      reader.result.then(() => resolve(), () => resolve());
    });
  }
  reader.end();
  return reader.result;
}

/** `total` zero bytes compressed on the fly; `meter.made` counts the zeros the reader let it make. */
function bomb(coding: 'gzip' | 'deflate' | 'br', total: number, meter: { made: number }): Readable {
  const zero = Buffer.alloc(64 * 1024);
  const zeros = new Readable({
    read() {
      if (meter.made >= total) return void this.push(null);
      meter.made += zero.length;
      this.push(zero);
    },
  });
  const zip = coding === 'gzip' ? createGzip() : coding === 'deflate' ? createDeflate() : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  return zeros.pipe(zip);
}

const NO_LIMITS = { maxWire: 0, maxDecoded: 0 };

describe('BodyReader', () => {
  it.each([
    ['gzip', gzipSync(TEXT)],
    ['x-gzip', gzipSync(TEXT)],
    ['deflate', deflateSync(TEXT)],
    ['deflate', deflateRawSync(TEXT)],
    ['br', brotliCompressSync(TEXT)],
    [' GZIP ', gzipSync(TEXT)],
  ])('undoes Content-Encoding %j', async (coding, raw) => {
    const { body, truncated } = await read(chunks(raw, 97), coding, NO_LIMITS);
    expect(truncated).toBe(false);
    expect(body.equals(TEXT)).toBe(true);
  });

  it.each([undefined, '', 'identity', 'zstd'])('passes a body with Content-Encoding %j through as it is', async (coding) => {
    const { body, truncated } = await read(chunks(TEXT), coding, NO_LIMITS);
    expect(truncated).toBe(false);
    expect(body.equals(TEXT)).toBe(true);
  });

  it('reads an empty body, with or without Content-Encoding', async () => {
    for (const coding of [undefined, 'gzip']) expect(await read([], coding, NO_LIMITS)).toEqual({ body: Buffer.alloc(0), truncated: false });
  });

  it.each([0, 3_000_000, 2_000_000])('reads a 2 MB body whole in chunks (max-wire %i)', async (maxWire) => {
    const big = Buffer.from(Array.from({ length: 2_000_000 }, (_, i) => i % 251));
    const { body, truncated } = await read(chunks(big, 65_536), undefined, { maxWire, maxDecoded: 0 });
    expect(truncated).toBe(false);
    expect(body.equals(big)).toBe(true);
    const zipped = await read(chunks(gzipSync(big), 4096), 'gzip', { maxWire: 0, maxDecoded: maxWire });
    expect(zipped.truncated).toBe(false);
    expect(zipped.body.equals(big)).toBe(true);
  });

  it('cuts the body at max-wire bytes, marks it truncated, and wants no more from then on', async () => {
    const reader = new BodyReader(undefined, { maxWire: 2500, maxDecoded: 0 }, () => {});
    expect(reader.push(TEXT.subarray(0, 1000))).toBe(true);
    expect(reader.push(TEXT.subarray(1000, 2000))).toBe(true);
    expect(reader.stopped).toBe(false);
    expect(reader.push(TEXT.subarray(2000, 3000))).toBe(false);
    expect(reader.stopped).toBe(true);
    expect(reader.push(TEXT.subarray(3000, 4000))).toBe(false);
    const { body, truncated } = await reader.result;
    expect(truncated).toBe(true);
    expect(body.equals(TEXT.subarray(0, 2500))).toBe(true);
  });

  it('is not truncated when the body is exactly the cap', async () => {
    const { body, truncated } = await read(chunks(TEXT), undefined, { maxWire: TEXT.length, maxDecoded: 0 });
    expect(truncated).toBe(false);
    expect(body.equals(TEXT)).toBe(true);
  });

  it('decodes a compressed body cut by max-wire as far as it goes', async () => {
    const raw = gzipSync(TEXT, { level: 0 });
    const { body, truncated } = await read(chunks(raw), 'gzip', { maxWire: Math.floor(raw.length / 2), maxDecoded: 0 });
    expect(truncated).toBe(true);
    expect(body.length).toBeGreaterThan(1000);
    expect(body.equals(TEXT.subarray(0, body.length))).toBe(true);
  });

  it.each(['gzip', 'deflate', 'br'] as const)('stops a %s bomb at max-decoded, long before it is all downloaded', async (coding) => {
    const meter = { made: 0 };
    const total = 1 << 30;
    const cap = 1 << 20;
    const { body, truncated } = await read(bomb(coding, total, meter), coding, { maxWire: 0, maxDecoded: cap });
    expect(truncated).toBe(true);
    expect(body.length).toBe(cap);
    expect(body.equals(Buffer.alloc(cap))).toBe(true);
    expect(meter.made).toBeLessThan(16 * cap);
  });

  it('asks to wait while its decoder is behind, and resumes the download when it has room', async () => {
    const noise = randomBytes(1 << 20);
    let resumed = 0;
    const reader = new BodyReader('gzip', NO_LIMITS, () => resumed++);
    expect(reader.push(gzipSync(noise))).toBe(false);
    expect(reader.stopped).toBe(false);
    await expect.poll(() => resumed).toBe(1);
    reader.end();
    expect((await reader.result).body.equals(noise)).toBe(true);
  });

  it('rejects bytes that are not what Content-Encoding says with a bad-encoding FetchError', async () => {
    const err = await read(chunks(TEXT), 'gzip', NO_LIMITS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect(err).toMatchObject({ code: 'bad-encoding', action: 'give-up' });
  });

  it('keeping the wire bytes, reads an undecodable body to its end and says why it could not decode it', async () => {
    const broken = Buffer.concat([gzipSync(TEXT).subarray(0, 20), Buffer.from('not the rest of a gzip stream '.repeat(2000))]);
    // The rest arrives after the decoder has failed on the first chunk.
    async function* slowly(): AsyncGenerator<Buffer> {
      const [first, ...rest] = chunks(broken);
      yield first!;
      await new Promise((resolve) => setTimeout(resolve, 50));
      yield* rest;
    }
    const got = await read(slowly(), 'gzip', NO_LIMITS, true);
    expect(got.wire!.equals(broken)).toBe(true);
    expect(got.undecodable).toBeInstanceOf(FetchError);
    expect(got.undecodable).toMatchObject({ code: 'bad-encoding', action: 'give-up' });
    const capped = await read(chunks(broken), 'gzip', { maxWire: 5000, maxDecoded: 0 }, true);
    expect(capped.wire!.equals(broken.subarray(0, 5000))).toBe(true);
    expect(capped.truncated).toBe(true);
    expect(capped.undecodable?.code).toBe('bad-encoding');
  });

  it('passes a network error through', async () => {
    const reader = new BodyReader(undefined, NO_LIMITS, () => {});
    reader.push(Buffer.from('<p>'));
    reader.fail(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    await expect(reader.result).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('keeps a body it has cut when the download then fails', async () => {
    const reader = new BodyReader(undefined, { maxWire: 10, maxDecoded: 0 }, () => {});
    reader.push(TEXT.subarray(0, 20));
    reader.fail(new Error('aborted'));
    expect(await reader.result).toMatchObject({ body: TEXT.subarray(0, 10), truncated: true });
  });
});

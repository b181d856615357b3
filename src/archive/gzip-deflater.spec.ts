import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GzipDeflater } from './gzip-deflater.js';

describe('GzipDeflater', () => {
  it('makes members that each decompress to their own input alone, one after another on the kept stream', () => {
    const deflater = new GzipDeflater({ level: 1 }, 1 << 16);
    const words = ['<p class="x">', 'tarantula ', 'web ', '</p>\n', 'crawler '];
    const inputs = Array.from({ length: 400 }, (_, i) => {
      const text = Array.from({ length: (i * 37) % 3000 }, (_, j) => words[(i + j * 7) % words.length]).join('');
      // Random bytes between the text: a member must not match into the previous member's window.
      return Buffer.concat([Buffer.from(text.slice(0, 20_000)), randomBytes(i % 50)]);
    });
    const members = inputs.map((input) => deflater.gzip(input));
    for (const [i, member] of members.entries()) {
      expect(member.subarray(0, 3)).toEqual(Buffer.from([0x1f, 0x8b, 0x08]));
      expect(gunzipSync(member).equals(inputs[i]!)).toBe(true);
    }
    // A WARC is these members back to back; gzip reads them as one stream.
    expect(gunzipSync(Buffer.concat(members)).equals(Buffer.concat(inputs))).toBe(true);
  });

  it('takes an input of the largest size even when it does not deflate, and refuses a larger one', () => {
    const deflater = new GzipDeflater({ level: 1 }, 1 << 20);
    const random = randomBytes(1 << 20);
    const member = deflater.gzip(random);
    expect(member.length).toBeGreaterThan(random.length);
    expect(gunzipSync(member).equals(random)).toBe(true);
    expect(gunzipSync(deflater.gzip(Buffer.alloc(0))).length).toBe(0);
    expect(() => deflater.gzip(Buffer.alloc((1 << 20) + 1))).toThrow(/1048577 bytes is more than the 1048576/);
  });

  it('returns a buffer of its own: the next member does not overwrite the last', () => {
    const deflater = new GzipDeflater({ level: 1 }, 1 << 10);
    const first = deflater.gzip(Buffer.from('first record'));
    const copy = Buffer.from(first);
    deflater.gzip(Buffer.from('second record, longer than the first'));
    expect(first.equals(copy)).toBe(true);
    expect(gunzipSync(first).toString()).toBe('first record');
  });
});

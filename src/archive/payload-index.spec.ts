import { describe, expect, it } from 'vitest';
import { PayloadIndex } from './payload-index.js';
import { warcDate } from './warc-date.js';
import { sha1Digest } from './warc-records.js';

describe('PayloadIndex', () => {
  it('gives back the first capture of each payload, by the digest with or without its sha1: prefix', () => {
    const payloads = new PayloadIndex();
    const digests = Array.from({ length: 5000 }, (_, i) => sha1Digest(`page ${i}`));
    for (const [i, digest] of digests.entries()) {
      payloads.add(digest, `http://h${i % 7}.test/p/${i}.html`, Date.UTC(2026, 11, 1, 9) + i * 1000);
    }
    // A later capture of a payload does not replace the first.
    payloads.add(digests[42]!, 'http://h0.test/copy', Date.UTC(2026, 11, 2));
    expect(payloads.size).toBe(5000);
    for (const i of [0, 42, 4999]) {
      const expected = { url: `http://h${i % 7}.test/p/${i}.html`, date: warcDate(Date.UTC(2026, 11, 1, 9) + i * 1000) };
      expect(payloads.first(digests[i]!)).toEqual(expected);
      expect(payloads.first(digests[i]!.slice('sha1:'.length))).toEqual(expected);
    }
    expect(payloads.first(sha1Digest('never archived'))).toBeUndefined();
  });

  it('gives back the WARC-Date of the time it was given, to the second, and refuses what is not a time', () => {
    const payloads = new PayloadIndex();
    expect(() => payloads.add(sha1Digest('x'), 'http://a.test/', Date.parse('yesterday'))).toThrow(/not a time: NaN/);
    expect(payloads.size).toBe(0);
    payloads.add(sha1Digest('x'), 'http://a.test/', Date.parse('2026-12-01T09:00:00.999Z'));
    expect(payloads.first(sha1Digest('x'))).toEqual({ url: 'http://a.test/', date: '2026-12-01T09:00:00Z' });
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintSet } from './seen-set.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

describe('fingerprintSet', () => {
  it('says a key is new once and seen afterwards, across resizes', () => {
    const seen = fingerprintSet(16);
    const keys = Array.from({ length: 50_000 }, (_, i) => md5(`http://h${i % 97}.test/p/${i}`));
    expect(keys.every((k) => seen.add(k))).toBe(true);
    expect(keys.every((k) => !seen.add(k) && seen.has(k))).toBe(true);
    expect(seen.size).toBe(50_000);
    expect(seen.has(md5('http://never.test/'))).toBe(false);
  });

  it('accepts upper-case hex and the all-zero fingerprint', () => {
    const seen = fingerprintSet();
    expect(seen.add('00000000000000000000000000000000')).toBe(true);
    expect(seen.has('00000000000000000000000000000000')).toBe(true);
    expect(seen.add('ABCDEF0123456789abcdef0123456789')).toBe(true);
    expect(seen.has('abcdef0123456789ABCDEF0123456789')).toBe(true);
  });
});

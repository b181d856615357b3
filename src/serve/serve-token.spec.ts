import { describe, expect, it } from 'vitest';
import { bearerCheck } from './serve-token.js';

describe('bearerCheck', () => {
  const check = bearerCheck('s3cret');

  it('takes the token after "Bearer", in any case of the scheme', () => {
    expect(check('Bearer s3cret')).toBe('ok');
    expect(check('bearer s3cret')).toBe('ok');
  });

  it('tells a missing or malformed header (401) from a wrong token (403)', () => {
    expect(check(undefined)).toBe('missing');
    expect(check('Basic czNjcmV0')).toBe('missing');
    expect(check('Bearer')).toBe('missing');
    expect(check('Bearer s3cre')).toBe('wrong');
    expect(check('Bearer s3cret2')).toBe('wrong');
    expect(check('Bearer S3CRET')).toBe('wrong');
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, place } from './config-error.js';
import { didYouMean, orList, suggest } from './wording.js';

describe('wording', () => {
  it('suggests the nearest name only when it is a likely typo', () => {
    const keys = ['max-page-number', 'max-depth', 'threads'];
    expect(suggest('max-pages-numbr', keys)).toBe('max-page-number');
    expect(suggest('thread', keys)).toBe('threads');
    expect(suggest('colour', keys)).toBeUndefined();
    expect(didYouMean('treads', keys, '--')).toBe('; did you mean "--threads"?');
    expect(didYouMean('zzz', keys)).toBe('');
  });

  it('lists words with a final "or"', () => {
    expect([orList([]), orList(['a']), orList(['a', 'b']), orList(['a', 'b', 'c'])]).toEqual(['', 'a', 'a or b', 'a, b or c']);
  });

  it('builds messages as WHERE: DETAIL', () => {
    expect(place('c.conf', 3)).toBe('c.conf:3');
    expect(place('c.conf')).toBe('c.conf');
    const err = new ConfigError('conf-syntax', 'c.conf:3', 'oops');
    expect([err.message, err.code, err.name, err instanceof Error]).toEqual(['c.conf:3: oops', 'conf-syntax', 'ConfigError', true]);
    expect(new ConfigError('arg-missing', '', 'usage').message).toBe('usage');
  });
});

import { describe, expect, it } from 'vitest';
import { oneLine } from './fields.js';

describe('oneLine', () => {
  it('replaces every tab and kind of line break by a space, leaving other text alone', () => {
    expect(oneLine('a\tb\nc\rd\ve\ff\x1cg\x85h\u2028i\u2029j')).toBe('a b c d e f g h i j');
    const plain = 'Ελληνικά 中文 "quoted", ok';
    expect(oneLine(plain)).toBe(plain);
  });
});

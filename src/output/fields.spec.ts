import { describe, expect, it } from 'vitest';
import { escapeControls, oneSafeLine } from './fields.js';

describe('oneSafeLine', () => {
  it('replaces every tab and kind of line break by a space, leaving other text alone', () => {
    expect(oneSafeLine('a\tb\nc\rd\ve\ff\x1cg\x85h\u2028i\u2029j')).toBe('a b c d e f g h i j');
    const plain = 'Ελληνικά 中文 "quoted", ok';
    expect(oneSafeLine(plain)).toBe(plain);
  });

  it('replaces every other control character (ESC, BEL, DEL, C1, bidirectional overrides and isolates) by ?', () => {
    expect(oneSafeLine('t\x1b[2J\x1b]0;x\x07\x7f\u009b1m\u202egnp.exe\u2066i\u2069 a\tb')).toBe('t?[2J?]0;x???1m?gnp.exe?i? a b');
  });
});

describe('escapeControls', () => {
  it('writes the control characters JSON.stringify leaves raw as \\u escapes, and LS/PS too; the value parses back', () => {
    const value = { t: 'a\x7fb\u0085c\u009bd\u202ae\u2069f\u2028g\u2029h\x1bi' };
    const line = escapeControls(JSON.stringify(value));
    expect(line).toBe('{"t":"a\\u007fb\\u0085c\\u009bd\\u202ae\\u2069f\\u2028g\\u2029h\\u001bi"}');
    expect(JSON.parse(line)).toEqual(value);
  });

  it('returns a line without such characters as it is', () => {
    const line = JSON.stringify({ t: 'Ελληνικά 中文 \u200f' });
    expect(escapeControls(line)).toBe(line);
  });
});

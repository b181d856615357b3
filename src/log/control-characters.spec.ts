import { describe, expect, it } from 'vitest';
import { replaceControls } from './control-characters.js';

describe('replaceControls', () => {
  it('replaces C0, DEL, C1 and the bidirectional embeddings, overrides and isolates by ?', () => {
    expect(replaceControls('\x1b[2J\x1b]0;t\x07 \x7f \u0085\u009b \u202a\u202b\u202c\u202d\u202e \u2066\u2067\u2068\u2069')).toBe('?[2J?]0;t? ? ?? ????? ????');
  });

  it('leaves other text as it is, the same string when there is nothing to replace', () => {
    const text = 'Ελληνικά 中文 "quoted" \u200f\u200eשלום\u061c \u00a0\u00ff\u200d👩‍👩‍👧';
    expect(replaceControls(text)).toBe(text);
  });

  it('keeps the characters a format already handles', () => {
    expect(replaceControls('a\tb\r\nc\x1bd\v', '\t\n\r')).toBe('a\tb\r\nc?d?');
  });
});

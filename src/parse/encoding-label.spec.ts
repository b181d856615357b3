import { describe, expect, it } from 'vitest';
import { decodeText, resolveEncodingLabel } from './encoding-label.js';

describe('resolveEncodingLabel', () => {
  it.each([
    [' Latin1 ', 'windows-1252'], ['ISO_8859-1', 'windows-1252'], ['gb2312', 'gbk'], ['GB_2312-80', 'gbk'],
    ['x-sjis', 'shift_jis'], ['ms_kanji', 'shift_jis'], ['greek', 'iso-8859-7'], ['cp1253', 'windows-1253'],
    ['unicode-1-1-utf-8', 'utf-8'], ['x-euc-jp', 'euc-jp'],
  ])('resolves %j to %s', (label, encoding) => {
    expect(resolveEncodingLabel(label)).toBe(encoding);
  });

  it('answers undefined for unknown labels and encodings Node cannot decode', () => {
    expect(resolveEncodingLabel('klingon')).toBeUndefined();
    expect(resolveEncodingLabel('')).toBeUndefined();
    expect(resolveEncodingLabel('iso-2022-kr')).toBeUndefined(); // the Standard's "replacement"
    expect(resolveEncodingLabel('latin1\u00a0')).toBeUndefined(); // only ASCII whitespace is stripped
  });
});

describe('decodeText', () => {
  it('decodes legacy encodings', () => {
    expect(decodeText(Uint8Array.of(0xc1, 0xe8, 0xde, 0xed, 0xe1), 'windows-1253')).toBe('Αθήνα');
  });

  // Node 20.18.3+ decodes windows-1252 as Latin-1 (nodejs/node#60888); these are the bytes that differ.
  it('decodes windows-1252 by the Encoding Standard, not as Latin-1', () => {
    expect(decodeText(Uint8Array.of(0x80, 0x93, 0x94, 0x96, 0x85), 'windows-1252')).toBe('€“”–…');
    expect(decodeText(Uint8Array.of(0x81, 0x9f, 0xe9, 0x41), 'windows-1252')).toBe('\u0081Ÿé' + 'A');
    expect(decodeText(Uint8Array.of(0x92, 0x20, 0x92).subarray(1), 'windows-1252')).toBe(' ’');
    expect(decodeText(Uint8Array.of(0x80), 'ISO-8859-1')).toBe('€');
  });

  it('drops the BOM and replaces invalid bytes instead of failing', () => {
    expect(decodeText(Uint8Array.of(0xef, 0xbb, 0xbf, 0x41, 0xff, 0x42), 'utf-8')).toBe('A\uFFFDB');
    expect(decodeText(Uint8Array.of(0xff, 0xfe, 0x41, 0x00), 'utf-16le')).toBe('A');
  });

  it('throws RangeError for an encoding TextDecoder does not know', () => {
    expect(() => decodeText(Uint8Array.of(0x41), 'klingon')).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeRobotsTxt, robotsTxtLines, ROBOTS_TXT_MAX_BYTES } from './robots-txt-lines.js';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('decodeRobotsTxt', () => {
  it.each([
    ['a whole BOM', [0xef, 0xbb, 0xbf], 'ok'],
    ['the first two bytes of a BOM', [0xef, 0xbb], 'ok'],
    ['the first byte of a BOM', [0xef], 'ok'],
    ['no BOM', [], 'ok'],
  ])('drops %s before the text', (_what, prefix, text) => {
    expect(decodeRobotsTxt(bytes(prefix, text))).toBe(text);
  });

  it('keeps a broken BOM as garbage on the first line', () => {
    expect(decodeRobotsTxt(bytes([0xef, 0x11, 0xbf], 'ok'))).toBe('\u0011\ufffdok');
  });

  it('drops a BOM from a string, only at the start', () => {
    expect(decodeRobotsTxt('\ufeffa\n\ufeffb')).toBe('a\n\ufeffb');
  });

  it('cuts at the last line end within the limit', () => {
    const line = 'x'.repeat(99) + '\r';
    const text = line.repeat(Math.ceil(ROBOTS_TXT_MAX_BYTES / 100) + 1);
    const decoded = decodeRobotsTxt(text);
    expect(decoded.length).toBe(ROBOTS_TXT_MAX_BYTES);
    expect(decoded.endsWith('\r')).toBe(true);
  });

  it('gives nothing when the first 500 KiB hold no line end', () => {
    expect(decodeRobotsTxt(new Uint8Array(ROBOTS_TXT_MAX_BYTES + 1).fill(0x61))).toBe('');
  });
});

describe('robotsTxtLines', () => {
  const read = (text: string): string[] => [...robotsTxtLines(text)].map((l) => `${l.key}=${l.value}`);

  it.each([
    ['LF', 'User-agent: a\nDisallow: /x\n'],
    ['CRLF', 'User-agent: a\r\nDisallow: /x\r\n'],
    ['CR', 'User-agent: a\rDisallow: /x\r'],
    ['mixed, no final newline', 'User-agent: a\r\n\n\rDisallow: /x'],
  ])('splits %s line ends', (_kind, text) => {
    expect(read(text)).toEqual(['user-agent=a', 'disallow=/x']);
  });

  it('folds key case, trims spaces and tabs, and strips comments', () => {
    expect(read('  uSeR-AgEnT :\tFoo Bar  # who\n# Disallow: /\nALLOW: /a#b\n')).toEqual(['user-agent=Foo Bar', 'allow=/a']);
  });

  it('keeps an empty value', () => {
    expect(read('Disallow:\n')).toEqual(['disallow=']);
  });

  it('accepts a missing colon only between exactly two words', () => {
    expect(read('disallow /x\nuser-agent a b\nallow\n')).toEqual(['disallow=/x']);
  });

  it.each([
    ['useragent', 'user-agent'],
    ['User Agent', 'user-agent'],
    ['disalow', 'disallow'],
    ['dissallow', 'disallow'],
    ['dissalow', 'disallow'],
    ['diasllow', 'disallow'],
    ['disallaw', 'disallow'],
    ['Site-map', 'sitemap'],
    ['Crawl-Delay', 'crawl-delay'],
  ])('reads the key %s as %s', (written, key) => {
    expect(read(`${written}: v`)).toEqual([`${key}=v`]);
  });

  it('skips unknown keys, lines without a key, and a mid-file BOM before a key', () => {
    expect(read('foo: bar\n: /x\nnoise\n\ufeffDisallow: /\nHost: e.com\n')).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeText } from './encoding-label.js';
import { extractHtml } from './extract-html.js';
import { prescanMeta } from './meta-prescan.js';
import { detectEncoding, sniffEncoding } from './sniff-encoding.js';

const VECTORS = new URL('../../fixtures/testdata/html-encoding-sniffing/', import.meta.url);

interface EncodingCase {
  id: string;
  data_base64: string;
  data_length: number;
  expected_encoding: string;
  needs_scripting: boolean;
}
const { cases } = JSON.parse(readFileSync(new URL('encoding-cases.json', VECTORS), 'utf8')) as { cases: EncodingCase[] };
const bytesOf = (c: EncodingCase): Uint8Array => Buffer.from(c.data_base64, 'base64');
const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');

describe('sniffEncoding on the html5lib encoding vectors', () => {
  const prescanCases = cases.filter((c) => c.data_length <= 1024 && !c.needs_scripting);
  const longCases = cases.filter((c) => c.data_length > 1024);

  it('has the 75 prescan cases and 7 full-parser cases the README counts', () => {
    expect(prescanCases).toHaveLength(75);
    expect(longCases).toHaveLength(7);
  });

  it.each(prescanCases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    expect(sniffEncoding(bytesOf(c)).encoding).toBe(c.expected_encoding);
  });

  // These put their <meta charset="iso8859-2"> after byte 1024. A browser's tokenizer meets it
  // later and re-decodes; SPEC §6 (like the standard's prescan) looks at the first 1024 bytes
  // only, so they keep the default. The prescan itself would find it given the whole document.
  it.each(longCases.map((c) => [c.id, c] as const))('%s: the meta lies past the 1024-byte window', (_id, c) => {
    const bytes = bytesOf(c);
    expect(sniffEncoding(bytes)).toEqual({ encoding: 'windows-1252', source: c.id === 'tests1.dat#54' ? 'detected' : 'default' });
    expect(prescanMeta(bytes, bytes.length)).toBe(c.expected_encoding);
  });

  // Its <meta> exists only once a script has run document.write(); a crawler runs no scripts.
  it('scripted/tests1.dat#1 keeps the default, since no script runs', () => {
    const scripted = cases.find((c) => c.needs_scripting)!;
    expect(sniffEncoding(bytesOf(scripted))).toEqual({ encoding: 'windows-1252', source: 'default' });
  });

  it('detects the undeclared Big5 sample with chardet', () => {
    const big5 = readFileSync(new URL('chardet/test_big5.txt', VECTORS));
    expect(sniffEncoding(big5)).toEqual({ encoding: 'big5', source: 'detected' });
  });
});

describe('sniffEncoding order', () => {
  const metaGreek = ascii('<meta charset="windows-1253"><p>\xc1\xe8\xde\xed\xe1</p>');

  it('takes a BOM over the header and the meta', () => {
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf, ...metaGreek);
    expect(sniffEncoding(bom, 'text/html; charset=iso-8859-7')).toEqual({ encoding: 'utf-8', source: 'bom' });
    expect(sniffEncoding(Uint8Array.of(0xff, 0xfe, 0x3c, 0))).toEqual({ encoding: 'utf-16le', source: 'bom' });
    expect(sniffEncoding(Uint8Array.of(0xfe, 0xff, 0, 0x3c))).toEqual({ encoding: 'utf-16be', source: 'bom' });
  });

  it('takes the header charset over the meta', () => {
    expect(sniffEncoding(metaGreek, 'text/html; charset="ISO-8859-7"')).toEqual({ encoding: 'iso-8859-7', source: 'header' });
  });

  it.each([
    ['latin1', 'windows-1252'], ['ISO-8859-1', 'windows-1252'], ['us-ascii', 'windows-1252'],
    ['gb2312', 'gbk'], ['x-sjis', 'shift_jis'], ['iso-8859-7', 'iso-8859-7'], ['Windows-1253', 'windows-1253'],
    ['UTF8', 'utf-8'], ['euc-jp', 'euc-jp'],
  ])('resolves the header label %s to %s', (label, encoding) => {
    expect(sniffEncoding(ascii('<p>x</p>'), `text/html; charset=${label}`)).toEqual({ encoding, source: 'header' });
  });

  it('passes over a header label it cannot use and reads the meta', () => {
    expect(sniffEncoding(metaGreek, 'text/html; charset=klingon')).toEqual({ encoding: 'windows-1253', source: 'meta' });
    expect(sniffEncoding(metaGreek, 'text/html')).toEqual({ encoding: 'windows-1253', source: 'meta' });
  });

  it('calls undeclared valid UTF-8 utf-8, and undeclared ASCII windows-1252', () => {
    expect(sniffEncoding(Buffer.from('<p>Καλημέρα</p>'))).toEqual({ encoding: 'utf-8', source: 'detected' });
    expect(sniffEncoding(ascii('<p>Hello</p>'))).toEqual({ encoding: 'windows-1252', source: 'default' });
    expect(sniffEncoding(new Uint8Array(0))).toEqual({ encoding: 'windows-1252', source: 'default' });
  });
});

describe('detectEncoding', () => {
  it('still calls UTF-8 cut inside its last character (a body read up to a size limit) utf-8', () => {
    const whole = Buffer.from('<p>Καλημέρα κόσμε €</p>'.repeat(20));
    const cut = whole.subarray(0, whole.lastIndexOf(Buffer.from('€')) + 2);
    expect(detectEncoding(cut)).toBe('utf-8');
  });

  it('does not call bytes with an invalid sequence in the middle utf-8', () => {
    const broken = Buffer.concat([Buffer.from('<p>Καλημέρα</p>'), Uint8Array.of(0xe2, 0x28, 0xa1), Buffer.from('<p>ok</p>')]);
    expect(detectEncoding(broken)).not.toBe('utf-8');
  });

  it('leaves a guess that chardet is unsure of to the default', () => {
    const oneAccent = ascii(`<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20)} caf\xe9.</p>`);
    expect(detectEncoding(oneAccent)).toBeUndefined();
    expect(sniffEncoding(oneAccent)).toEqual({ encoding: 'windows-1252', source: 'default' });
  });
});

describe('sniffEncoding on real pages in legacy encodings', () => {
  const page = (name: string): Uint8Array => readFileSync(new URL(`../../fixtures/pages/encoding/${name}`, import.meta.url));
  const read = (bytes: Uint8Array, contentType?: string) => {
    const sniffed = sniffEncoding(bytes, contentType);
    return { ...sniffed, ...extractHtml(decodeText(bytes, sniffed.encoding)) };
  };
  const greekTitle = 'Άρθρα και νέα — Καλημέρα κόσμε';

  it('reads a windows-1253 page declared only in a meta tag', () => {
    const doc = read(page('greek-windows-1253-meta.html'), 'text/html');
    expect(doc).toMatchObject({ encoding: 'windows-1253', source: 'meta', title: greekTitle });
    expect(doc.links.map((l) => l.text)).toEqual(['Όλα τα άρθρα', 'Επικοινωνία']);
  });

  it('reads an iso-8859-7 page declared only in the header, and detects it without', () => {
    const bytes = page('greek-iso-8859-7-header.html');
    expect(read(bytes, 'text/html; charset=ISO-8859-7')).toMatchObject({ encoding: 'iso-8859-7', source: 'header', title: 'Άρθρα και νέα · Καλημέρα κόσμε' });
    expect(sniffEncoding(bytes)).toEqual({ encoding: 'iso-8859-7', source: 'detected' });
  });

  it('detects an undeclared windows-1253 page', () => {
    expect(read(page('greek-windows-1253-undeclared.html'), 'text/html')).toMatchObject({ encoding: 'windows-1253', source: 'detected', title: greekTitle });
  });

  it('reads a gb2312-declared page as gbk', () => {
    const doc = read(page('chinese-gbk.html'));
    expect(doc).toMatchObject({ encoding: 'gbk', source: 'meta', title: '中文网页 — 欢迎光临' });
    expect(doc.links.map((l) => l.text)).toEqual(['新闻中心', '关于我们']);
  });

  it('reads a shift_jis page, whose second bytes include 0x5C', () => {
    const doc = read(page('japanese-shift_jis.html'));
    expect(doc).toMatchObject({ encoding: 'shift_jis', source: 'meta', title: 'ようこそ 日本語のページへ' });
    expect(doc.links).toEqual([{ href: '/ja/news.html', text: 'お知らせ', nofollow: false, tag: 'a' }]);
  });

  it('reads a UTF-8 page by its BOM, over a wrong header', () => {
    const doc = read(page('utf8-bom-undeclared.html'), 'text/html; charset=iso-8859-1');
    expect(doc).toMatchObject({ encoding: 'utf-8', source: 'bom', title: 'Ünïcödé café ☕ Καλημέρα' });
  });
});

import { describe, expect, it } from 'vitest';
import { PRESCAN_LIMIT, prescanMeta } from './meta-prescan.js';

const scan = (html: string, limit?: number) => prescanMeta(Buffer.from(html, 'latin1'), limit);

describe('prescanMeta', () => {
  it.each([
    ['<meta charset="ISO-8859-7">', 'iso-8859-7'],
    ["<META CHARSET='gb2312'>", 'gbk'],
    ['<meta charset=shift_jis>', 'shift_jis'],
    ['<meta/charset=euc-jp>', 'euc-jp'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=windows-1253">', 'windows-1253'],
    ['<meta content="text/html;charset = \'koi8-r\'" http-equiv=content-type>', 'koi8-r'],
  ])('reads %s as %s', (html, encoding) => {
    expect(scan(html)).toBe(encoding);
  });

  it('turns a declared UTF-16 into utf-8 and x-user-defined into windows-1252', () => {
    expect(scan('<meta charset="utf-16le">')).toBe('utf-8');
    expect(scan('<meta charset="UTF-16">')).toBe('utf-8');
    expect(scan('<meta charset="x-user-defined">')).toBe('windows-1252');
  });

  it('needs http-equiv="content-type" before it trusts a content attribute', () => {
    expect(scan('<meta content="text/html; charset=iso-8859-2">')).toBeUndefined();
    expect(scan('<meta name="x" content="charset=iso-8859-2"><meta charset=iso-8859-7>')).toBe('iso-8859-7');
  });

  it('uses the first of a repeated attribute', () => {
    expect(scan('<meta charset="iso-8859-7" charset="gbk">')).toBe('iso-8859-7');
  });

  it('goes on to the next meta after an unknown label', () => {
    expect(scan('<meta charset="klingon"><meta charset="big5">')).toBe('big5');
  });

  it('skips comments, other tags and their attributes', () => {
    expect(scan('<!-- <meta charset="gbk"> --><meta charset="iso-8859-7">')).toBe('iso-8859-7');
    expect(scan('<!--><meta charset="iso-8859-7">')).toBe('iso-8859-7');
    expect(scan('<div title="<meta charset=gbk>"></div>')).toBeUndefined();
    expect(scan('<metal charset="gbk">')).toBeUndefined();
    expect(scan('<!DOCTYPE html><?php x ?></p ><meta charset=big5>')).toBe('big5');
  });

  it('looks only at the first 1024 bytes', () => {
    const padding = `<!--${'x'.repeat(PRESCAN_LIMIT)}-->`;
    expect(scan(`${padding}<meta charset="iso-8859-7">`)).toBeUndefined();
    expect(scan(`${padding}<meta charset="iso-8859-7">`, Infinity)).toBe('iso-8859-7');
    const justInside = `${' '.repeat(PRESCAN_LIMIT - 25)}<meta charset="gbk">`;
    expect(justInside.length).toBeLessThanOrEqual(PRESCAN_LIMIT);
    expect(scan(justInside)).toBe('gbk');
  });

  it('falls back to an XML declaration', () => {
    expect(scan('<?xml version="1.0" encoding="ISO-8859-7"?><html>')).toBe('iso-8859-7');
    expect(scan("<?xml version='1.0' encoding='utf-16'?><html>")).toBe('utf-8');
    expect(scan('<?xml version="1.0"?><html><meta charset=gbk>')).toBe('gbk');
  });

  it('recognises UTF-16 by an XML declaration’s first bytes', () => {
    expect(prescanMeta(Buffer.from('<?xml version="1.0"?>', 'utf16le'))).toBe('utf-16le');
    expect(prescanMeta(Buffer.from('<?xml version="1.0"?>', 'utf16le').swap16())).toBe('utf-16be');
  });
});

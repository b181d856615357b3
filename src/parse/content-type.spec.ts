import { describe, expect, it } from 'vitest';
import { parseContentType } from './content-type.js';

describe('parseContentType', () => {
  it.each([
    [undefined, '', undefined],
    ['', '', undefined],
    ['text/html', 'text/html', undefined],
    ['Text/HTML; Charset="ISO-8859-7"', 'text/html', 'ISO-8859-7'],
    ['text/html;charset=utf-8', 'text/html', 'utf-8'],
    ['text/html; boundary=x; charset = windows-1253 ; q=1', 'text/html', 'windows-1253'],
    ['text/html; charset="unterminated', 'text/html', 'unterminated'],
    ['text/html; charset=', 'text/html', undefined],
    ['text/html; notcharset=gbk', 'text/html', undefined],
    ['  application/XHTML+xml  ', 'application/xhtml+xml', undefined],
  ])('reads %j', (value, essence, charset) => {
    expect(parseContentType(value)).toEqual({ essence, charset });
  });
});

import { describe, expect, it } from 'vitest';
import { detectType, isHtml, isTextual, sniffType, typeFromExtension } from './detect-type.js';

const bytes = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const PNG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13);

describe('detectType from the Content-Type', () => {
  it.each([
    ['text/html; charset=utf-8', 'html'], ['application/xhtml+xml', 'html'], ['TEXT/HTML', 'html'],
    ['application/pdf', 'pdf'], ['text/plain', 'txt'], ['application/msword', 'doc'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
    ['application/vnd.ms-excel', 'xls'], ['application/vnd.ms-powerpoint', 'ppt'],
    ['text/xml', 'xml'], ['application/xml', 'xml'], ['application/rss+xml', 'xml'], ['application/atom+xml', 'xml'],
    ['application/json', 'json'], ['application/ld+json', 'json'], ['image/png', 'png'], ['image/jpeg', 'jpg'],
    ['image/gif', 'gif'], ['image/svg+xml', 'svg'], ['text/css', 'css'], ['application/javascript', 'js'],
    ['text/javascript; charset=utf-8', 'js'], ['application/zip', 'zip'], ['application/gzip', 'gz'], ['text/csv', 'csv'],
  ])('%s is %s', (contentType, type) => {
    // The URL says otherwise, to show the header wins.
    expect(detectType(contentType, 'http://a.gr/file.bin')).toBe(type);
  });
});

describe('detectType without a useful Content-Type', () => {
  it.each([
    [undefined, 'http://a.gr/index.htm', 'html'],
    [undefined, 'http://a.gr/Index.HTML', 'html'],
    ['application/octet-stream', 'http://a.gr/paper.PDF?download=1#p2', 'pdf'],
    [undefined, 'http://a.gr/photo.jpeg', 'jpg'],
    [undefined, 'http://a.gr/data.tar.gz', 'gz'],
    [undefined, 'http://a.gr/slides.odp', 'odp'],
    ['application/x-unknown', 'http://a.gr/notes.txt', 'txt'],
  ])('%s at %s is %s', (contentType, url, type) => {
    expect(detectType(contentType, url)).toBe(type);
  });

  it('sniffs the bytes when neither header nor extension tells', () => {
    expect(detectType(undefined, 'http://a.gr/get?id=7', bytes('%PDF-1.7\n'))).toBe('pdf');
    expect(detectType('application/octet-stream', 'http://a.gr/image', PNG)).toBe('png');
    expect(detectType(undefined, 'http://a.gr/index.php', bytes('\n  <!DOCTYPE html><html>'))).toBe('html');
    expect(detectType(undefined, 'http://a.gr/', bytes('<HTML><BODY>hi'))).toBe('html');
  });

  it('answers bin when nothing tells, and txt for an unknown text/* type', () => {
    expect(detectType(undefined, 'http://a.gr/')).toBe('bin');
    expect(detectType(undefined, 'http://a.gr/data', Uint8Array.of(0, 1, 2, 3))).toBe('bin');
    expect(detectType(undefined, undefined, new Uint8Array(0))).toBe('bin');
    expect(detectType('text/x-fortran', 'http://a.gr/prog')).toBe('txt');
  });
});

describe('typeFromExtension', () => {
  it.each([
    ['https://a.gr/docs/Guide.HTM#top', 'html'],
    ['https://a.gr/a.b/readme', undefined],
    ['https://a.gr/index.php?id=3', undefined],
    ['https://a.gr/cgi-bin/search.cgi', undefined],
    ['https://www.a.gr', undefined],
    ['https://www.a.gr?x=1.pdf', undefined],
    ['https://a.gr/v1.2', undefined],
    ['https://a.gr/page.', undefined],
    ['/local/path/file.XML', 'xml'],
  ])('%s gives %s', (url, type) => {
    expect(typeFromExtension(url)).toBe(type);
  });
});

describe('sniffType', () => {
  it.each([
    ['GIF89a...', 'gif'], ['\xff\xd8\xff\xe0JFIF', 'jpg'], ['PK\x03\x04rest', 'zip'], ['\x1f\x8b\x08\x00', 'gz'],
    ['RIFF\x00\x00\x00\x00WEBPVP8 ', 'webp'], ['%!PS-Adobe-3.0', 'ps'], ['{\\rtf1\\ansi', 'rtf'],
    ['\xef\xbb\xbf<!doctype html>', 'html'], ['<!-- generated -->\n<p>', 'html'], ['<p>para', 'html'],
    ['<?xml version="1.0"?><rss>', 'xml'], ['plain words\nand lines\n', 'txt'],
  ])('%j is %s', (data, type) => {
    expect(sniffType(bytes(data))).toBe(type);
  });

  it('does not take a tag name that merely starts like an HTML opener', () => {
    expect(sniffType(bytes('<bookmarks>'))).toBe('txt');
    expect(sniffType(bytes('<abc\x00\x01'))).toBeUndefined();
  });
});

describe('isTextual and isHtml', () => {
  it.each([
    ['html', 'text/html', true], ['txt', 'text/plain', true], ['xml', 'application/rss+xml', true],
    ['svg', 'image/svg+xml', true], ['json', 'application/json', true], ['js', 'application/javascript', true],
    ['fortran', 'text/x-fortran', true], ['html', undefined, true], ['xml', 'application/octet-stream', true],
    ['pdf', 'application/pdf', false], ['png', 'image/png', false], ['bin', undefined, false], ['doc', undefined, false],
  ])('%s (%s) is textual: %s', (type, contentType, textual) => {
    expect(isTextual(type, contentType)).toBe(textual);
  });

  it('knows HTML by its type', () => {
    expect(isHtml('html')).toBe(true);
    expect(isHtml('xml')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { contentTypeOf, isNotModified, validatorsOf } from './file-metadata.js';

describe('contentTypeOf', () => {
  it.each([
    ['index.html', 'text/html'],
    ['features.HTM', 'text/html'],
    ['changelog.txt', 'text/plain'],
    ['paper.pdf', 'application/pdf'],
    ['logo.png', 'image/png'],
    ['photo.jpg', 'image/jpeg'],
    ['anim.gif', 'image/gif'],
    ['site.css', 'text/css'],
    ['app.js', 'text/javascript'],
    ['feed.xml', 'application/xml'],
    ['data.json', 'application/json'],
    ['report.doc', 'application/msword'],
    ['draft.tmp', 'application/octet-stream'],
    ['news', 'application/octet-stream'],
  ])('types %s as %s', (name, type) => {
    expect(contentTypeOf(name)).toBe(type);
  });
});

describe('validatorsOf', () => {
  it('derives the ETag from size and mtime and formats Last-Modified as an IMF-fixdate', () => {
    expect(validatorsOf({ size: 255, mtimeMs: 1704164645123.7 })).toEqual({
      etag: '"ff-18cc820d903"',
      lastModified: 'Tue, 02 Jan 2024 03:04:05 GMT',
    });
  });
});

describe('isNotModified', () => {
  const etag = '"ff-1"';
  const lm = 'Tue, 02 Jan 2024 03:04:05 GMT';
  it.each([
    [{ 'if-none-match': '"ff-1"' }, true],
    [{ 'if-none-match': 'W/"ff-1"' }, true],
    [{ 'if-none-match': '"a", "ff-1"' }, true],
    [{ 'if-none-match': '*' }, true],
    [{ 'if-none-match': '"other"' }, false],
    [{ 'if-none-match': '"other"', 'if-modified-since': lm }, false],
    [{ 'if-modified-since': lm }, true],
    [{ 'if-modified-since': 'Wed, 03 Jan 2024 00:00:00 GMT' }, true],
    [{ 'if-modified-since': 'Tue, 02 Jan 2024 03:04:04 GMT' }, false],
    [{ 'if-modified-since': 'not a date' }, false],
    [{}, false],
  ])('answers %j with %s', (headers, expected) => {
    expect(isNotModified(headers, etag, lm)).toBe(expected);
  });

  it('never matches validators the response does not have', () => {
    expect(isNotModified({ 'if-none-match': '*' }, undefined, lm)).toBe(false);
    expect(isNotModified({ 'if-modified-since': lm }, etag, undefined)).toBe(false);
  });
});

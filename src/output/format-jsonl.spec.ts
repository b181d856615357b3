import { describe, expect, it } from 'vitest';
import { formatJsonl } from './format-jsonl.js';
import type { IndexRecord } from '../model/index-record.js';

const rec: IndexRecord = {
  md5: '9a0364b9e99bb480dd25e1f0284c8555', url: 'http://h/', originalUrl: 'http://h', title: 'Home', encoding: 'utf-8',
  type: 'html', lastModified: null, serverDate: 'Tue, 15 Nov 1994 08:12:31 GMT', status: 200, etag: '"e1"',
  localPath: 'h/index.html', contentLength: 10, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 0,
  fetchedAt: '2024-01-01T00:00:00.000Z', durationMs: 5, duplicateOf: null, links: [{ url: 'http://h/a', text: 'About' }],
};
const ORDER = ['md5', 'url', 'originalUrl', 'title', 'encoding', 'type', 'lastModified', 'serverDate', 'status', 'etag',
  'localPath', 'contentLength', 'contentMd5', 'depth', 'fetchedAt', 'durationMs', 'duplicateOf', 'links'];

describe('formatJsonl', () => {
  it('writes one line with the fields in the SPEC order, null for missing values', () => {
    const out = formatJsonl(rec);
    expect(out.endsWith('\n')).toBe(true);
    expect(out.indexOf('\n')).toBe(out.length - 1);
    const parsed = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(ORDER);
    expect(parsed).toEqual(rec);
  });

  it('adds truncated only when true, and keeps only url and text of links', () => {
    const links = [{ text: 'A', url: 'http://h/a', extra: 1 }];
    expect(Object.keys(JSON.parse(formatJsonl({ ...rec, truncated: false })) as object)).toEqual(ORDER);
    const out = formatJsonl({ ...rec, truncated: true, links });
    expect(Object.keys(JSON.parse(out) as object)).toEqual([...ORDER, 'truncated']);
    expect(out).toContain('"links":[{"url":"http://h/a","text":"A"}]');
  });

  it('keeps any text on one line, escaping U+2028 and U+2029', () => {
    const title = 'a\nb\t"c"\u2028d\u2029 \u0395\u03bb\u03bb\u03ac\u03b4\u03b1 \u4e2d\u6587';
    const out = formatJsonl({ ...rec, title });
    expect(out.slice(0, -1)).not.toMatch(/[\n\r\u2028\u2029]/);
    expect((JSON.parse(out) as IndexRecord).title).toBe(title);
  });

  it('escapes the control characters of every field from the web, so that nothing reaches a terminal raw and each value reads back', () => {
    const hostile = { ...rec, title: 't\x1b[2J\u009b1m\u202e', originalUrl: '/x\u2066', etag: '"\x7f"', lastModified: 'Mon\u0085', links: [{ url: 'http://h/a', text: 'a\u202db' }] };
    const out = formatJsonl(hostile);
    expect(out.slice(0, -1)).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(out).toContain('"title":"t\\u001b[2J\\u009b1m\\u202e"');
    const back = JSON.parse(out) as IndexRecord;
    expect([back.title, back.originalUrl, back.etag, back.lastModified, back.links]).toEqual([hostile.title, hostile.originalUrl, hostile.etag, hostile.lastModified, hostile.links]);
  });
});

import { parseString, writeToString } from 'fast-csv';
import { describe, expect, it } from 'vitest';
import { csvHeader, formatCsv } from './format-csv.js';
import type { IndexRecord } from '../model/index-record.js';

const rec: IndexRecord = {
  md5: '9a0364b9e99bb480dd25e1f0284c8555', url: 'http://h/', originalUrl: 'http://h', title: 'Home', encoding: 'utf-8',
  type: 'html', lastModified: null, serverDate: 'Tue, 15 Nov 1994 08:12:31 GMT', status: 200, etag: '"e1"',
  localPath: 'h/index.html', contentLength: 10, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 0,
  fetchedAt: '2024-01-01T00:00:00.000Z', durationMs: 5, duplicateOf: null, links: [{ url: 'http://h/a', text: 'About' }],
};
const FIELDS = csvHeader.trimEnd().split(',') as (keyof IndexRecord)[];
const titles = ['plain', 'comma, inside', 'say "hi"', '"', 'line\nbreak', 'cr\r\nlf', 'pipe | bar', 'nul\0byte', '',
  '\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac, \u00ab\u03c4\u03af\u03c4\u03bb\u03bf\u03c2\u00bb', '\u4e2d\u6587\u6807\u9898\uff0c"\u5f15\u53f7"', ' spaced '];

const parseAll = (text: string): Promise<string[][]> =>
  new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text).on('data', (r: string[]) => rows.push(r)).on('error', reject).on('end', () => resolve(rows));
  });

describe('formatCsv', () => {
  it('has a header of the scalar fields in the SPEC order, without links', () => {
    expect(csvHeader).toBe(
      'md5,url,originalUrl,title,encoding,type,lastModified,serverDate,status,etag,localPath,contentLength,contentMd5,depth,fetchedAt,durationMs,duplicateOf\n',
    );
  });

  it('writes exactly what fast-csv writes for the same rows', async () => {
    const recs = titles.map((title) => ({ ...rec, title }));
    const ours = csvHeader + recs.map(formatCsv).join('');
    const rows = recs.map((r) => FIELDS.map((f) => r[f] as string | number | null));
    const theirs = await writeToString([FIELDS, ...rows], { includeEndRowDelimiter: true });
    expect(ours).toBe(theirs);
  });

  it('parses back with fast-csv to the same values, empty for null', async () => {
    const recs = titles.map((title) => ({ ...rec, title }));
    const [header, ...rows] = await parseAll(csvHeader + recs.map(formatCsv).join(''));
    expect(header).toEqual(FIELDS);
    expect(rows.map((r) => r[3])).toEqual(titles.map((t) => t.replaceAll('\0', '')));
    expect(rows[0]?.[6]).toBe('');
    expect(rows[0]?.[8]).toBe('200');
  });

  it('replaces the control characters of every field by ?, but tabs and the line breaks a quoted field keeps', async () => {
    const hostile = { ...rec, title: 't\x1b[2J\u009b1m\u202e\tx\r\ny', originalUrl: '/x\u2066', etag: '"\x7f"', lastModified: 'Mon\u0085' };
    const out = formatCsv(hostile);
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    const [, row] = await parseAll(csvHeader + out);
    expect([row?.[2], row?.[3], row?.[6], row?.[9]]).toEqual(['/x?', 't?[2J?1m?\tx\r\ny', 'Mon?', '"?"']);
  });
});

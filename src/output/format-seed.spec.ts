import { describe, expect, it } from 'vitest';
import { formatSeed } from './format-seed.js';
import type { IndexRecord } from '../model/index-record.js';

const rec: IndexRecord = {
  md5: '9a0364b9e99bb480dd25e1f0284c8555', url: 'http://h/', originalUrl: 'http://h', title: 'Home', encoding: 'utf-8',
  type: 'html', lastModified: null, serverDate: 'Tue, 15 Nov 1994 08:12:31 GMT', status: 200, etag: null,
  localPath: 'h/index.html', contentLength: 10, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 0,
  fetchedAt: '2024-01-01T00:00:00.000Z', durationMs: 5, duplicateOf: null,
  links: [{ url: 'http://h/a', text: 'About us' }, { url: 'http://h/b', text: '' }],
};

describe('formatSeed', () => {
  it('writes the document line, then a tab-@ line per link, with - for missing values', () => {
    expect(formatSeed(rec)).toBe(
      '9a0364b9e99bb480dd25e1f0284c8555\thttp://h/\thttp://h\tHome\tutf-8\thtml\t-\tTue, 15 Nov 1994 08:12:31 GMT\n' +
        '\t@http://h/a About us\n\t@http://h/b \n',
    );
  });

  it('writes - for an empty title and no link lines for a page without links', () => {
    expect(formatSeed({ ...rec, title: '', links: [] })).toBe(
      '9a0364b9e99bb480dd25e1f0284c8555\thttp://h/\thttp://h\t-\tutf-8\thtml\t-\tTue, 15 Nov 1994 08:12:31 GMT\n',
    );
  });

  it('turns tabs and line breaks inside fields into spaces so every line keeps its shape', () => {
    const out = formatSeed({
      ...rec,
      originalUrl: ' a\tb ',
      title: 'x\ty\r\nz\u2028w',
      links: [{ url: 'http://h/a', text: 'one\ttwo\nthree' }],
    });
    const lines = out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]?.split('\t')).toHaveLength(8);
    expect(lines[0]?.split('\t')[3]).toBe('x y  z w');
    expect(lines[1]).toBe('\t@http://h/a one two three');
  });

  it('replaces the other control characters of every field from the web by ?, so that nothing reaches a terminal raw', () => {
    const out = formatSeed({
      ...rec,
      originalUrl: '/x\u2066',
      title: 't\x1b[2J\x1b]0;w\x07\u009b1m\u202e',
      lastModified: 'Mon\x7f',
      serverDate: 'Tue\u0085',
      links: [{ url: 'http://h/a', text: 'a\u202db\x1b' }],
    });
    expect(out).toBe('9a0364b9e99bb480dd25e1f0284c8555\thttp://h/\t/x?\tt?[2J?]0;w??1m?\tutf-8\thtml\tMon?\tTue \n\t@http://h/a a?b?\n');
  });
});

import { describe, expect, it } from 'vitest';
import { formatEdges } from './format-edges.js';
import type { IndexRecord } from '../model/index-record.js';

const rec = (links: IndexRecord['links']): IndexRecord => ({
  md5: '9a0364b9e99bb480dd25e1f0284c8555', url: 'http://h/', originalUrl: 'http://h', title: 'Home', encoding: 'utf-8',
  type: 'html', lastModified: null, serverDate: null, status: 200, etag: null, localPath: 'h/index.html',
  contentLength: 10, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 0, fetchedAt: '2024-01-01T00:00:00.000Z',
  durationMs: 5, duplicateOf: null, links,
});

describe('formatEdges', () => {
  it('writes FROM<TAB>TO per link, in document order', () => {
    expect(formatEdges(rec([{ url: 'http://h/a', text: 'A' }, { url: 'http://x/', text: 'X' }]))).toBe(
      'http://h/\thttp://h/a\nhttp://h/\thttp://x/\n',
    );
  });

  it('shows no control character raw, whatever the URLs hold', () => {
    expect(formatEdges(rec([{ url: 'http://h/\x1b[2J\u202e', text: 'A' }]))).toBe('http://h/\thttp://h/?[2J?\n');
  });

  it('writes nothing for a page without links', () => {
    expect(formatEdges(rec([]))).toBe('');
  });
});

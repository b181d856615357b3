import { describe, expect, it } from 'vitest';
import type { IndexRecord } from '../model/index-record.js';
import type { DocumentInfo, Outcome } from '../model/outcome.js';
import { CrawlStats } from './crawl-stats.js';

const record = (url: string, contentMd5: string): IndexRecord => ({
  md5: '0'.repeat(32), url, originalUrl: url, title: null, encoding: null, type: 'html', lastModified: null, serverDate: null, status: 200,
  etag: null, localPath: 'h/x', contentLength: 1, contentMd5, depth: 0, fetchedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, duplicateOf: null, links: [],
});
const docOf = (rec: IndexRecord): DocumentInfo => ({
  type: 'html', isHtml: true, encoding: 'utf-8', title: null, links: [], follow: [], noindex: false, nofollow: false,
  contentMd5: rec.contentMd5, duplicateOf: null, simhash: null, nearDuplicateOf: null, linksCut: 0,
});
const documentOf = (rec: IndexRecord, unchanged: boolean): Outcome => ({
  kind: 'document', req: { url: rec.url, host: 'h', depth: 0, originalUrl: rec.url, redirects: 0, attempt: 0 }, status: unchanged ? 304 : 200, record: rec,
  indexed: true, contentType: 'text/html', unchanged, bytes: 1, truncated: false, durationMs: 1, links: [],
  doc: docOf(rec),
});

describe('CrawlStats on a recrawl', () => {
  it('sorts documents into new, changed and unchanged: a 304 or the same content MD5 is unchanged, with or without validators', () => {
    const last = new Map([['http://h/same', record('http://h/same', 'a')], ['http://h/edited', record('http://h/edited', 'b')], ['http://h/304', record('http://h/304', 'c')]]);
    const stats = new CrawlStats((url) => last.get(url));
    stats.record(documentOf(record('http://h/same', 'a'), false));
    stats.record(documentOf(record('http://h/edited', 'B'), false));
    stats.record(documentOf(last.get('http://h/304')!, true));
    stats.record(documentOf(record('http://h/new', 'd'), false));
    expect(stats.recrawlSummary()).toEqual({ new: 1, changed: 1, unchanged: 2, gone: 0 });
  });
});

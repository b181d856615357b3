import { describe, expect, it } from 'vitest';
import type { CrawlRequest } from './crawl-request.js';
import type { IndexRecord } from './index-record.js';
import type { Outcome } from './outcome.js';
import type { PageVisit } from './page-visit.js';
import { endOf } from './request-end.js';

const req: CrawlRequest = { url: 'http://a.test/', host: 'a.test', depth: 0, originalUrl: 'http://a.test/', redirects: 0, attempt: 0 };
const retry: CrawlRequest = { ...req, attempt: 1 };
const record = { url: req.url, contentMd5: 'c4ca4238a0b923820dcc509a6f75849b' } as IndexRecord;
const visit: PageVisit = { etag: '"v1"', lastModified: null, contentMd5: record.contentMd5, fetchedAt: 1, changedAt: 1 };

describe('endOf', () => {
  it.each<[string, Outcome, unknown]>([
    ['a document, with its record', { kind: 'document', req, record } as Outcome, { kind: 'document', record }],
    ['a 304 where the record is elsewhere, with its visit', { kind: 'revalidated', req, status: 304, visit }, { kind: 'document', visit }],
    ['a redirect', { kind: 'redirect', req, status: 301, location: 'http://a.test/b', links: [] }, { kind: 'done' }],
    ['a skip', { kind: 'skipped', req, reason: 'robots' }, { kind: 'done' }],
    ['a sitemap read', { kind: 'sitemap', req, status: 200, urls: 0, sitemaps: 0, links: [] }, { kind: 'done' }],
    ['a failure', { kind: 'failed', req, code: 'ECONNREFUSED', message: 'refused' }, { kind: 'done' }],
    ['a retry: its next attempt in its place', { kind: 'retry', req, retry, code: 'http-503', message: '503' }, { kind: 'again', next: retry }],
    ['robots.txt fetched first: the request again, put back', { kind: 'robots-fetched', req }, { kind: 'again', next: { ...req, requeued: true } }],
    ['one a stop cut short: the request again, pending', { kind: 'unfinished', req }, { kind: 'again', next: { ...req, requeued: true } }],
  ])('%s', (_, out, end) => {
    expect(endOf(out)).toEqual(end);
  });
});

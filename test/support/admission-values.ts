import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import type { Candidate, CrawlRequest } from '../../src/model/crawl-request.js';
import type { DropReport, FilterReason } from '../../src/model/filter-reason.js';
import type { Admissible } from '../../src/stages/drop-when.js';

/** A scheduler for marble tests of one stage, comparing with vitest's deep equality. */
export const marbles = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** A drop report that keeps what it is told, in order. */
export function reports(): { readonly report: DropReport; readonly reported: [FilterReason, string][] } {
  const reported: [FilterReason, string][] = [];
  return { report: (reason, href) => void reported.push([reason, href]), reported };
}

/** A link found on http://a.test/dir/page.html. */
export const link = (href: string, depth = 1, extra: Partial<Candidate> = {}): Candidate => ({ href, base: 'http://a.test/dir/page.html', depth, ...extra });
export const admissible = (url: string, depth = 1, extra: Partial<Candidate> = {}): Admissible => ({ candidate: link(url, depth, extra), url });
export const request = (url: string, extra: Partial<CrawlRequest> = {}): CrawlRequest => ({ url, host: new URL(url).host, depth: 1, originalUrl: url, redirects: 0, attempt: 0, ...extra });

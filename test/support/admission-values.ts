import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import type { Candidate, CrawlRequest } from '../../src/model/crawl-request.js';
import type { DropReport, FilterReason } from '../../src/model/filter-reason.js';
import { firstValueFrom, of } from 'rxjs';
import { ContentSeen } from '../../src/frontier/content-seen.js';
import type { Fetched, Parsed } from '../../src/model/outcome.js';
import { parseDocument } from '../../src/stages/parse-document.js';
import { linkPolicy } from '../../src/url/link-policy.js';
import { RobotsCache } from '../../src/robots/robots-cache.js';
import type { Admissible } from '../../src/stages/drop-when.js';

/** A scheduler for marble tests of one stage, comparing with vitest's deep equality. */
export const marbles = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** A drop report that keeps what it is told, in order, and which of the URLs it was told of are seeds. */
export function reports(): { readonly report: DropReport; readonly reported: [FilterReason, string][]; readonly seeds: string[] } {
  const reported: [FilterReason, string][] = [];
  const seeds: string[] = [];
  const report: DropReport = (reason, href, _detail, seed) => {
    reported.push([reason, href]);
    if (seed === true) seeds.push(href);
  };
  return { report, reported, seeds };
}

/** A link found on http://a.test/dir/page.html. */
export const link = (href: string, depth = 1, extra: Partial<Candidate> = {}): Candidate => ({ href, base: 'http://a.test/dir/page.html', depth, ...extra });
export const admissible = (url: string, depth = 1, extra: Partial<Candidate> = {}): Admissible => ({ candidate: link(url, depth, extra), url });
export const request = (url: string, extra: Partial<CrawlRequest> = {}): CrawlRequest => ({ url, host: new URL(url).host, depth: 1, originalUrl: url, redirects: 0, attempt: 0, ...extra });

/** A 200 response to `url` with `body`, as fetchPage gives it to the rest of the unit. */
export const fetched = (url: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' }, extra: Partial<CrawlRequest> = {}, status = 200): Fetched => ({
  kind: 'fetched',
  req: request(url, { originalUrl: url, ...extra }),
  response: { status, headers, body: Buffer.from(body), truncated: false, startedAt: Date.parse('2026-11-30T03:00:00Z'), durationMs: 4 },
});

/** A robots cache that has read each origin's robots.txt from `files` (origin → its text; an origin left out answers 404). */
export async function robotsCacheOf(files: Record<string, string>, userAgent = 'tarantula/1.0'): Promise<RobotsCache> {
  const robots = new RobotsCache({
    fetch: (url) => {
      const text = files[new URL(url).origin];
      return Promise.resolve({ status: text === undefined ? 404 : 200, headers: {}, body: Buffer.from(text ?? ''), truncated: false, startedAt: 0, durationMs: 1 });
    },
    userAgent,
    ttlMs: 60_000,
  });
  await Promise.all(Object.keys(files).map((origin) => robots.get(origin)));
  return robots;
}

/** `f` as parseDocument describes it, following every link (free-spanning), under the content seen so far. */
export const parsed = (f: Fetched, contentSeen = new ContentSeen()): Promise<Parsed> =>
  firstValueFrom(of(f).pipe(parseDocument({ policy: linkPolicy({ scope: 'free-spanning', seeds: [], accept: [], reject: [] }), agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0, contentSeen, report: () => {} }))) as Promise<Parsed>;

import type { OperatorFunction } from 'rxjs';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import type { DocumentInfo, Fetched, Outcome, Parsed } from '../model/outcome.js';
import { passOutcomes } from './pass-outcomes.js';
import { describeDocument, type DocumentDescription } from '../parse/describe-document.js';
import type { ContentSeen } from '../frontier/content-seen.js';
import type { NearDuplicateIndex } from '../frontier/near-duplicate-index.js';
import type { NormalizeOptions } from '../url/normalize-url.js';
import type { DropReport } from '../model/filter-reason.js';
import type { LinkPolicy } from '../url/link-policy.js';

/** What {@link parseDocument} needs: the link policy, the robots name, the link limits, and the content seen so far. */
export interface ParseDocumentOptions {
  readonly policy: LinkPolicy;
  /** The robots name (product token) that `<meta name=...>` and `X-Robots-Tag` rules may address. */
  readonly agent: string;
  readonly obeyRelNofollow: boolean;
  /** Links taken from one page; 0 = no limit. */
  readonly maxLinksPerPage: number;
  /** Content fingerprints already seen → the URL that had them first (shared crawl state). */
  readonly contentSeen: ContentSeen;
  /** Near-duplicate detection (SPEC §10); none when absent. */
  readonly near?: NearDuplicates;
  readonly report: DropReport;
  readonly normalize?: NormalizeOptions;
}

/**
 * Learns what the index needs of a fetched document ({@link describeDocument}, on this thread), and
 * marks a body seen before under another URL as `duplicateOf` it, whose links are then not followed again.
 *
 * @example
 * of(fetched).pipe(parseDocument(opts)) //=> { kind: 'parsed', doc: { type: 'html', title: 'Home', links: [...] } }
 */
export function parseDocument(opts: ParseDocumentOptions): OperatorFunction<Fetched | Outcome, Parsed | Outcome> {
  const describe = { ...opts, check: opts.policy.check.bind(opts.policy) };
  return passOutcomes((value: Fetched): Parsed => {
    const { req, response } = value;
    const input = { url: req.url, contentType: response.headers['content-type'], xRobotsTag: response.headers['x-robots-tag'], body: response.body };
    const doc = documentInfo(req, describeDocument(input, describe, opts.report), opts.contentSeen, opts.near);
    return value.kept ? { kind: 'parsed', req, response, doc, kept: value.kept } : { kind: 'parsed', req, response, doc };
  });
}

/** The pages' SimHashes seen so far (shared crawl state), and whether a near-duplicate's links are left alone. */
export interface NearDuplicates {
  readonly index: NearDuplicateIndex;
  readonly skipLinks: boolean;
}

/**
 * Turns a description into the crawl's view of the document: content seen before under another URL
 * makes it a duplicate (recorded with its links, which are not followed again); a SimHash within
 * `near.index.bits` of an earlier page's makes it a near-duplicate of that page (its links are
 * followed unless `near.skipLinks`); the links to follow are candidates one level deeper.
 */
export function documentInfo(req: CrawlRequest, d: DocumentDescription, contentSeen: ContentSeen, near?: NearDuplicates): DocumentInfo {
  const first = contentSeen.add(d.contentMd5, req.url);
  const duplicateOf = first !== undefined && first !== req.url ? first : null;
  let nearDuplicateOf: string | null = null;
  if (near !== undefined && d.simhash !== null && duplicateOf === null) {
    nearDuplicateOf = near.index.find(d.simhash, req.url) ?? null;
    // A near-duplicate is found through the page it is near to: only pages unlike any before are added.
    if (first === undefined && nearDuplicateOf === null) near.index.add(d.simhash, req.url);
  }
  // A copy of a page already crawled still lists its links (SPEC §6), but they are not taken again.
  const taken = duplicateOf === null && !(nearDuplicateOf !== null && near?.skipLinks === true);
  const follow = (taken ? d.links : []).map((l): Candidate => ({ href: l.href, url: l.url, vetted: true, base: d.base, depth: req.depth + 1 }));
  return {
    type: d.type, isHtml: d.isHtml, encoding: d.encoding, title: d.title, noindex: d.noindex, nofollow: d.nofollow,
    contentMd5: d.contentMd5, duplicateOf, simhash: d.simhash, nearDuplicateOf, linksCut: d.linksCut,
    links: d.links.map((l) => ({ url: l.url, text: l.text })),
    follow,
  };
}

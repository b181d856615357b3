import { map, type OperatorFunction } from 'rxjs';
import type { Candidate, CrawlRequest } from '../frontier/crawl-request.js';
import type { DocumentInfo, UnitValue } from '../engine/outcome.js';
import { describeDocument, type DocumentDescription } from '../parse/describe-document.js';
import type { NormalizeOptions } from '../url/normalize-url.js';
import type { DropReport } from './admissible.js';
import type { LinkPolicy } from './link-policy.js';

export interface ParseDocumentOptions {
  readonly policy: LinkPolicy;
  /** The robots name (product token) that `<meta name=...>` and `X-Robots-Tag` rules may address. */
  readonly agent: string;
  readonly obeyRelNofollow: boolean;
  /** Links taken from one page; 0 = no limit. */
  readonly maxLinksPerPage: number;
  /** Content fingerprints already seen → the URL that had them first (shared crawl state). */
  readonly contentSeen: Map<string, string>;
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
export function parseDocument(opts: ParseDocumentOptions): OperatorFunction<UnitValue, UnitValue> {
  const describe = { ...opts, check: opts.policy.check.bind(opts.policy) };
  return map((value) => {
    if (!('kind' in value) || value.kind !== 'fetched') return value;
    const { req, response } = value;
    const input = { url: req.url, contentType: response.headers['content-type'], xRobotsTag: response.headers['x-robots-tag'], body: response.body };
    const doc = documentInfo(req, describeDocument(input, describe, opts.report), opts.contentSeen);
    return { kind: 'parsed', req, response, doc, ...(value.kept ? { kept: value.kept } : {}) };
  });
}

/**
 * Turns a description into the crawl's view of the document: content seen before under another URL
 * makes it a duplicate (recorded with its links, which are not followed again); the links to follow
 * are candidates one level deeper.
 */
export function documentInfo(req: CrawlRequest, d: DocumentDescription, contentSeen: Map<string, string>): DocumentInfo {
  const first = contentSeen.get(d.contentMd5);
  const duplicateOf = first !== undefined && first !== req.url ? first : null;
  if (first === undefined) contentSeen.set(d.contentMd5, req.url);
  // A copy of a page already crawled still lists its links (SPEC §6), but they are not taken again.
  const follow = (duplicateOf === null ? d.links : []).map((l): Candidate => ({ href: l.href, url: l.url, vetted: true, base: d.base, depth: req.depth + 1 }));
  return {
    type: d.type, isHtml: d.isHtml, encoding: d.encoding, title: d.title, noindex: d.noindex, nofollow: d.nofollow,
    contentMd5: d.contentMd5, duplicateOf, linksCut: d.linksCut,
    links: d.links.map((l) => ({ url: l.url, text: l.text })),
    follow,
  };
}

import { createHash } from 'node:crypto';
import { map, type OperatorFunction } from 'rxjs';
import type { Candidate } from '../frontier/crawl-request.js';
import type { DocumentInfo, Fetched, UnitValue } from '../engine/outcome.js';
import { detectType, isHtml, isTextual } from '../parse/detect-type.js';
import { decodeText } from '../parse/encoding-label.js';
import { extractHtml } from '../parse/extract-html.js';
import { parseRobotsDirectives } from '../parse/robots-directives.js';
import { sniffEncoding } from '../parse/sniff-encoding.js';
import { normalizeUrl, rejectionOf, type NormalizeOptions } from '../url/normalize-url.js';
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
 * Learns what the index needs of a fetched document (SPEC §6): its type, the encoding it was decoded
 * with, its title, and its links — normalized, in scope, passing the lists, not nofollow, once each,
 * in document order, each with the anchor text of its first occurrence. `<meta name="robots">` and
 * `X-Robots-Tag` are obeyed. A body seen before under another URL is marked `duplicateOf` and its
 * links are not taken again.
 *
 * @example
 * of(fetched).pipe(parseDocument(opts)) //=> { kind: 'parsed', doc: { type: 'html', title: 'Home', links: [...] } }
 */
export function parseDocument(opts: ParseDocumentOptions): OperatorFunction<UnitValue, UnitValue> {
  return map((value) =>
    'kind' in value && value.kind === 'fetched'
      ? { kind: 'parsed', req: value.req, response: value.response, doc: describe(value, opts), ...(value.kept ? { kept: value.kept } : {}) }
      : value,
  );
}

function describe({ req, response }: Fetched, opts: ParseDocumentOptions): DocumentInfo {
  const contentType = response.headers['content-type'];
  const body = response.body;
  const type = detectType(contentType, req.url, body);
  const html = isHtml(type);
  const encoding = html || isTextual(type, contentType) ? sniffEncoding(body, contentType).encoding : null;
  const contentMd5 = createHash('md5').update(body).digest('hex');
  const first = opts.contentSeen.get(contentMd5);
  const duplicateOf = first !== undefined && first !== req.url ? first : null;
  if (first === undefined) opts.contentSeen.set(contentMd5, req.url);
  const headerRules = parseRobotsDirectives(response.headers['x-robots-tag'], opts.agent);
  const base: DocumentInfo = {
    type, isHtml: html, encoding, title: null, links: [], follow: [],
    noindex: headerRules.noindex, nofollow: headerRules.nofollow, contentMd5, duplicateOf,
  };
  if (!html || encoding === null) return base;
  const page = extractHtml(decodeText(body, encoding), { agent: opts.agent });
  const noindex = base.noindex || page.metaRobots.noindex;
  const nofollow = base.nofollow || page.metaRobots.nofollow;
  const title = page.title || null;
  if (nofollow || duplicateOf !== null) return { ...base, title, noindex, nofollow };

  const baseUrl = page.baseHref !== undefined ? (normalizeUrl(page.baseHref, req.url) ?? req.url) : req.url;
  const links: { url: string; text: string }[] = [];
  const follow: Candidate[] = [];
  const listed = new Set<string>();
  const max = opts.maxLinksPerPage;
  for (const link of page.links) {
    if (max > 0 && links.length >= max) break;
    if (link.nofollow && opts.obeyRelNofollow) {
      opts.report('nofollow', link.href);
      continue;
    }
    if (link.href === '') {
      opts.report('duplicate', req.url); // an empty href is the page itself
      continue;
    }
    const url = normalizeUrl(link.href, baseUrl, opts.normalize);
    if (url === undefined) {
      opts.report(rejectionOf(link.href, baseUrl), link.href);
      continue;
    }
    if (listed.has(url)) continue;
    listed.add(url);
    const reason = opts.policy.check(link.href, url, new URL(url));
    if (reason !== undefined) {
      opts.report(reason, url);
      continue;
    }
    links.push({ url, text: link.text });
    follow.push({ href: link.href, url, vetted: true, base: baseUrl, depth: req.depth + 1, referrer: req.url });
  }
  return { ...base, title, noindex, nofollow, links, follow };
}

import { createHash } from 'node:crypto';
import type { FilterReason } from '../model/filter-reason.js';
import { normalizeUrl, rejectionOf, type NormalizeOptions } from '../url/normalize-url.js';
import { detectType, isHtml, isTextual } from './detect-type.js';
import { decodeText } from './encoding-label.js';
import { extractHtml } from './extract-html.js';
import { parseRobotsDirectives } from './robots-directives.js';
import { sniffEncoding } from './sniff-encoding.js';

/** A fetched document, as much of it as describing it needs (plain data: it crosses to worker threads). */
export interface DocumentInput {
  readonly url: string;
  readonly contentType: string | undefined;
  readonly xRobotsTag: string | undefined;
  readonly body: Uint8Array;
}

/** A link of the page that is listed in the index and followed: normalized, and as written. */
export interface DescribedLink {
  readonly url: string;
  readonly text: string;
  readonly href: string;
}

export interface DocumentDescription {
  readonly type: string;
  readonly isHtml: boolean;
  readonly encoding: string | null;
  readonly title: string | null;
  /** In scope, passing the lists, not nofollow, once each, in document order (empty when the page says nofollow). */
  readonly links: readonly DescribedLink[];
  /** The page's `<base href>` resolved, when it has one: what its links are relative to. */
  readonly base: string;
  readonly noindex: boolean;
  readonly nofollow: boolean;
  readonly contentMd5: string;
  /** The SimHash of an HTML document's visible text (16 hex digits); null for other types. */
  readonly simhash: string | null;
  /** Link occurrences left out because the page had `maxLinksPerPage` distinct links before them. */
  readonly linksCut: number;
}

export interface DescribeOptions {
  /** Why a link is not followed (scope, lists), or undefined. */
  readonly check: (raw: string, normalized: string) => FilterReason | undefined;
  /** The robots name (product token) that `<meta name=...>` and `X-Robots-Tag` rules may address. */
  readonly agent: string;
  readonly obeyRelNofollow: boolean;
  /** Distinct links taken from one page; 0 = no limit. */
  readonly maxLinksPerPage: number;
  readonly normalize?: NormalizeOptions;
  /** How a link is resolved and normalized. Default: {@link normalizeUrl} with `normalize`; a crawl passes a `cachedNormalizer`. */
  readonly resolve?: (href: string, base: string) => string | undefined;
}

/**
 * Learns what the index needs of a document (SPEC §6): its type, the encoding it was decoded with,
 * its title, and its links — normalized, in scope, passing the lists, not nofollow, once each, in
 * document order, with the anchor text of their first occurrence. `<meta name="robots">` and
 * `X-Robots-Tag` are obeyed. Pure: it runs on the main thread or in a worker alike. Links it drops
 * go to `dropped` with their reason.
 *
 * @example
 * describeDocument({ url: 'http://a.test/', contentType: 'text/html', xRobotsTag: undefined, body }, opts, drop)
 * //=> { type: 'html', encoding: 'utf-8', title: 'Home', links: [{ url: 'http://a.test/x', text: 'X', href: 'x' }], ... }
 */
export function describeDocument(doc: DocumentInput, opts: DescribeOptions, dropped: (reason: FilterReason, url: string) => void): DocumentDescription {
  const { url, contentType, body } = doc;
  const type = detectType(contentType, url, body);
  const html = isHtml(type);
  const encoding = html || isTextual(type, contentType) ? sniffEncoding(body, contentType).encoding : null;
  const contentMd5 = createHash('md5').update(body).digest('hex');
  const headerRules = parseRobotsDirectives(doc.xRobotsTag, opts.agent);
  const plain: DocumentDescription = {
    type, isHtml: html, encoding, title: null, links: [], base: url,
    noindex: headerRules.noindex, nofollow: headerRules.nofollow, contentMd5, simhash: null, linksCut: 0,
  };
  if (!html || encoding === null) return plain;
  const page = extractHtml(decodeText(body, encoding), { agent: opts.agent, simhash: true });
  const simhash = page.simhash ?? null;
  const noindex = plain.noindex || page.metaRobots.noindex;
  const nofollow = plain.nofollow || page.metaRobots.nofollow;
  const title = page.title || null;
  const base = page.baseHref !== undefined ? (normalizeUrl(page.baseHref, url) ?? url) : url;
  if (nofollow) return { ...plain, title, noindex, nofollow, base, simhash };

  const resolve = opts.resolve ?? ((href: string, from: string) => normalizeUrl(href, from, opts.normalize));
  const links: DescribedLink[] = [];
  const listed = new Set<string>();
  const max = opts.maxLinksPerPage;
  let linksCut = 0;
  for (const link of page.links) {
    if (max > 0 && links.length >= max) {
      dropped('too-many-links', link.href);
      linksCut++;
      continue;
    }
    if (link.nofollow && opts.obeyRelNofollow) {
      dropped('nofollow', link.href);
      continue;
    }
    if (link.href === '') {
      dropped('duplicate', url); // an empty href is the page itself
      continue;
    }
    const target = resolve(link.href, base);
    if (target === undefined) {
      dropped(rejectionOf(link.href, base), link.href);
      continue;
    }
    if (listed.has(target)) continue;
    listed.add(target);
    const reason = opts.check(link.href, target);
    if (reason !== undefined) {
      dropped(reason, target);
      continue;
    }
    links.push({ url: target, text: link.text, href: link.href });
  }
  return { ...plain, title, noindex, nofollow, base, links, linksCut, simhash };
}

import type { DescribedLink, DocumentDescription } from '../parse/describe-document.js';
import type { DocumentResult } from './document-job.js';

type Described = Extract<DocumentResult, { readonly description: DocumentDescription }>;

/**
 * A result as a worker posts it: the page's links as one list of strings, url, text and href of
 * each in turn (href `''` when it is the url itself: a link's href is never empty). The structured
 * clone writes every object's keys out and reads them back in; a page's links cost a third less
 * to send this way, on both threads.
 */
export type WireResult =
  | Exclude<DocumentResult, Described>
  | (Omit<Described, 'description'> & { readonly description: Omit<DocumentDescription, 'links'> & { readonly links: readonly string[] } });

/**
 * The result as it crosses to the main thread.
 *
 * @example
 * toWire(result).description.links //=> ['http://a.test/x', 'X', 'x', 'http://b.test/', 'B', '']
 */
export function toWire(result: DocumentResult): WireResult {
  if (!('description' in result)) return result;
  const links = result.description.links;
  const flat = new Array<string>(links.length * 3);
  let k = 0;
  for (const link of links) {
    flat[k++] = link.url;
    flat[k++] = link.text;
    flat[k++] = link.href === link.url ? '' : link.href;
  }
  return { ...result, description: { ...result.description, links: flat } };
}

/** The result a worker posted ({@link toWire}), as the handler gave it. */
export function fromWire(wire: WireResult): DocumentResult {
  if (!('description' in wire)) return wire;
  const flat = wire.description.links;
  const links = new Array<DescribedLink>(flat.length / 3);
  for (let i = 0, k = 0; i < flat.length; i += 3) {
    const url = flat[i]!;
    const href = flat[i + 2]!;
    links[k++] = { url, text: flat[i + 1]!, href: href === '' ? url : href };
  }
  return { ...wire, description: { ...wire.description, links } };
}

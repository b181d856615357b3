import { decodeHTML } from 'entities';
import { scanHtml, type TagAttributes } from './html-scanner.js';
import { LinkCollector, type ExtractOptions, type HtmlExtract } from './link-collector.js';
import { SimHasher } from './simhash.js';

export { collapseWhitespace, type ExtractOptions, type ExtractedLink, type HtmlExtract, type LinkTag } from './link-collector.js';

/** Elements inside which text flows on: they split no word of the SimHash's text. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var']);

/** Elements that never have content, so never stay open. */
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'image', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
/** Which open element (when it is the current one) a start tag closes: the end tags HTML lets authors leave out. */
const IMPLIED_END = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])], ['li', new Set(['li'])],
  ['option', new Set(['option'])], ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])], ['dt', new Set(['dd', 'dt'])], ['rt', new Set(['rt', 'rp'])], ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])], ['tfoot', new Set(['thead', 'tbody'])],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((t) => [t, FORM] as const),
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset',
    'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map((t) => [t, P] as const),
]);

/**
 * Title, base, links and robots rules of an HTML document, in one pass of {@link scanHtml} (no
 * DOM; text is only decoded where it is anchor or title text). Links come from `a[href]`,
 * `area[href]`, `frame[src]`, `iframe[src]` and `<meta http-equiv="refresh">`; nothing inside
 * `<script>`, `<style>`, `<template>` or comments counts. `<noscript>` content does count: a
 * crawler runs no scripts, so it is what the page shows us. `<noframes>` and `<iframe>` content is
 * raw text, as the HTML standard parses it, so links there are not seen. Open elements are kept
 * on a stack with the end tags HTML lets authors omit, so an end tag closes an anchor left open
 * inside its element. A new `<a>` closes the open one, as in the HTML standard; an anchor left
 * open otherwise collects text until an end tag or the end of the document closes it (a browser
 * would rather repeat the link in the blocks that follow). With `simhash`, the visible text (what
 * is not hidden in scripts, styles or templates: the text the title and anchors come from) is
 * also hashed as it goes by ({@link SimHasher}), with every tag but inline ones ending a word.
 *
 * @example
 * extractHtml('<title> Hi \n there </title><a href="/x?a=1&amp;b=2" rel="nofollow">X <img alt="logo"></a>')
 * //=> { title: 'Hi there', baseHref: undefined, metaRobots: { noindex: false, nofollow: false },
 * //     links: [{ href: '/x?a=1&b=2', text: 'X logo', nofollow: true, tag: 'a' }] }
 */
export function extractHtml(html: string, options: ExtractOptions = {}): HtmlExtract {
  const page = new LinkCollector(options);
  const stack: string[] = []; // open elements, the current one last
  const close = (): void => page.closed(stack.pop()!);
  const words = options.simhash ? new SimHasher(options.simhashSeed) : undefined;
  scanHtml(html, {
    startTag(name, attrs, selfClosing, foreign) {
      if (words?.inWord === true && !INLINE.has(name)) words.boundary();
      const implied = IMPLIED_END.get(name);
      if (implied !== undefined) while (stack.length > 0 && implied.has(stack[stack.length - 1]!)) close();
      page.opened(name, attrs);
      if (VOID.has(name)) return;
      // `/>` closes an element only in SVG and MathML; in HTML it is ignored.
      if (selfClosing && foreign) page.closed(name);
      else stack.push(name);
    },
    endTag(name) {
      if (words?.inWord === true && !INLINE.has(name)) words.boundary();
      if (VOID.has(name)) {
        if (name === 'br') page.opened('br', NO_ATTRIBUTES); // `</br>` is a line break, as browsers read it
        return;
      }
      const at = stack.lastIndexOf(name);
      if (at >= 0) while (stack.length > at) close();
      else if (name === 'p') page.opened('p', NO_ATTRIBUTES); // a stray `</p>` is an empty paragraph
    },
    text(from, to, decode) {
      // Hashed in place, anchor and title text too: the hasher reads references as separators, decoded or not.
      if (words !== undefined && page.visible) words.text(html, from, to);
      if (!page.wantsText) return;
      const raw = html.slice(from, to);
      page.text(decode && raw.includes('&') ? decodeHTML(raw) : raw);
    },
  });
  while (stack.length > 0) close();
  const result = page.result();
  return words === undefined ? result : { ...result, simhash: words.digest() };
}

const NO_ATTRIBUTES: TagAttributes = { get: () => undefined };

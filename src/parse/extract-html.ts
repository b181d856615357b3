import { decodeHTML } from 'entities';
import { scanHtml, type TagAttributes } from './html-scanner.js';
import { refreshTarget } from './meta-refresh.js';
import { NO_DIRECTIVES, parseRobotsDirectives, type RobotsDirectives } from './robots-directives.js';

/** The elements a link comes from; `meta` is a `<meta http-equiv="refresh">`. */
export type LinkTag = 'a' | 'area' | 'frame' | 'iframe' | 'meta';

export interface ExtractedLink {
  /** The attribute value as written: entities decoded and trimmed, not resolved. */
  readonly href: string;
  /** Anchor text, whitespace collapsed: an `<a>`'s text with each image's alt in its place; an `<area>`'s alt; else `''`. */
  readonly text: string;
  /** `rel` has the `nofollow` keyword. */
  readonly nofollow: boolean;
  readonly tag: LinkTag;
}

export interface HtmlExtract {
  /** The first `<title>` outside SVG, whitespace collapsed; `undefined` when there is none. */
  readonly title: string | undefined;
  /** The first `<base href>`, trimmed; `undefined` when there is none. */
  readonly baseHref: string | undefined;
  /** In document order, duplicates kept. */
  readonly links: readonly ExtractedLink[];
  /** From `<meta name="robots">` (and `<meta name=AGENT>`), all such tags together. */
  readonly metaRobots: RobotsDirectives;
}

export interface ExtractOptions {
  /** The crawler's robots name: `<meta name="tarantula">` then counts as well as `robots`. */
  readonly agent?: string;
}

interface MutableLink {
  href: string;
  text: string;
  nofollow: boolean;
  tag: LinkTag;
}

/** Nothing inside these is part of the page as a reader sees it (SPEC §6: scripts, styles; `<template>` is inert). */
export const HIDDEN: ReadonlySet<string> = new Set(['script', 'style', 'template']);
/** Tags whose start separates words of anchor text, as line breaks and blocks do on screen. */
export const BREAKS: ReadonlySet<string> = new Set(['br', 'p', 'div', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'blockquote', 'ul', 'ol', 'table']);
/** Elements that never have content, so never stay open. */
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'image', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const WHITESPACE = /\s+/g;

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

/** Runs of whitespace (any Unicode space, `&nbsp;` included) become one space; ends trimmed. */
export const collapseWhitespace = (s: string): string => s.replace(WHITESPACE, ' ').trim();

/** `rel` has the `nofollow` keyword. */
export const hasNofollow = (rel: string | undefined): boolean =>
  rel !== undefined && /(?:^|\s)nofollow(?:\s|$)/i.test(rel);

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
 * would rather repeat the link in the blocks that follow).
 *
 * @example
 * extractHtml('<title> Hi \n there </title><a href="/x?a=1&amp;b=2" rel="nofollow">X <img alt="logo"></a>')
 * //=> { title: 'Hi there', baseHref: undefined, metaRobots: { noindex: false, nofollow: false },
 * //     links: [{ href: '/x?a=1&b=2', text: 'X logo', nofollow: true, tag: 'a' }] }
 */
export function extractHtml(html: string, options: ExtractOptions = {}): HtmlExtract {
  const agent = options.agent?.toLowerCase();
  const links: MutableLink[] = [];
  const robotsContents: string[] = [];
  const stack: string[] = []; // open elements, the current one last
  let title: string | undefined;
  let titleText: string | undefined; // collecting while inside the first <title>
  let baseHref: string | undefined;
  let anchor: MutableLink | undefined;
  let hidden = 0; // depth inside HIDDEN elements
  let svg = 0; // depth inside <svg>, whose <title> is not the page's

  const push = (href: string | undefined, text: string, nofollow: boolean, tag: LinkTag): MutableLink | undefined => {
    if (href === undefined) return undefined;
    const link = { href: href.trim(), text, nofollow, tag };
    links.push(link);
    return link;
  };

  function opened(name: string, attrs: TagAttributes): void {
    if (HIDDEN.has(name)) hidden++;
    if (hidden > 0) return;
    if (anchor !== undefined) {
      if (name === 'img') anchor.text += attrs.get('alt') ?? '';
      else if (BREAKS.has(name)) anchor.text += ' ';
    }
    switch (name) {
      case 'a':
        endAnchor();
        anchor = push(attrs.get('href'), '', hasNofollow(attrs.get('rel')), 'a');
        break;
      case 'area':
        push(attrs.get('href'), collapseWhitespace(attrs.get('alt') ?? ''), hasNofollow(attrs.get('rel')), 'area');
        break;
      case 'frame':
      case 'iframe':
        push(attrs.get('src'), '', false, name);
        break;
      case 'base':
        if (baseHref === undefined) baseHref = attrs.get('href')?.trim();
        break;
      case 'meta':
        onMeta(attrs);
        break;
      case 'svg':
        svg++;
        break;
      case 'title':
        if (title === undefined && titleText === undefined && svg === 0) titleText = '';
        break;
    }
  }

  function closed(name: string): void {
    if (HIDDEN.has(name)) {
      hidden--;
      return;
    }
    if (hidden > 0) return;
    if (name === 'a') {
      endAnchor();
    } else if (name === 'title' && titleText !== undefined) {
      title = collapseWhitespace(titleText);
      titleText = undefined;
    } else if (name === 'svg') {
      svg--;
    }
  }

  function endAnchor(): void {
    if (anchor === undefined) return;
    anchor.text = collapseWhitespace(anchor.text);
    anchor = undefined;
  }

  function onMeta(attrs: TagAttributes): void {
    const name = attrs.get('name')?.trim().toLowerCase();
    const content = attrs.get('content');
    if (content === undefined) return;
    if (name === 'robots' || (name !== undefined && name === agent)) robotsContents.push(content);
    else if (attrs.get('http-equiv')?.trim().toLowerCase() === 'refresh') push(refreshTarget(content), '', false, 'meta');
  }

  scanHtml(html, {
    startTag(name, attrs, selfClosing) {
      const implied = IMPLIED_END.get(name);
      if (implied !== undefined) while (stack.length > 0 && implied.has(stack[stack.length - 1]!)) closed(stack.pop()!);
      opened(name, attrs);
      if (VOID.has(name)) return;
      // `/>` closes an element only in SVG and MathML; in HTML it is ignored.
      if (selfClosing && (svg > 0 || stack.includes('math'))) closed(name);
      else stack.push(name);
    },
    endTag(name) {
      if (VOID.has(name)) {
        if (name === 'br') opened('br', NO_ATTRIBUTES); // `</br>` is a line break, as browsers read it
        return;
      }
      const at = stack.lastIndexOf(name);
      if (at >= 0) while (stack.length > at) closed(stack.pop()!);
      else if (name === 'p') opened('p', NO_ATTRIBUTES); // a stray `</p>` is an empty paragraph
    },
    text(from, to, decode) {
      if (hidden > 0 || (titleText === undefined && anchor === undefined)) return;
      const raw = html.slice(from, to);
      const text = decode && raw.includes('&') ? decodeHTML(raw) : raw;
      if (titleText !== undefined) titleText += text;
      if (anchor !== undefined) anchor.text += text;
    },
  });
  while (stack.length > 0) closed(stack.pop()!);
  return {
    title,
    baseHref,
    links,
    metaRobots: robotsContents.length === 0 ? NO_DIRECTIVES : parseRobotsDirectives(robotsContents, agent),
  };
}

const NO_ATTRIBUTES: TagAttributes = { get: () => undefined };

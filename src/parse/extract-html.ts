import { Parser } from 'htmlparser2';
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
const HIDDEN = new Set(['script', 'style', 'template']);
/** Tags whose start separates words of anchor text, as line breaks and blocks do on screen. */
const BREAKS = new Set(['br', 'p', 'div', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'blockquote', 'ul', 'ol', 'table']);
const WHITESPACE = /\s+/g;

/** Runs of whitespace (any Unicode space, `&nbsp;` included) become one space; ends trimmed. */
export const collapseWhitespace = (s: string): string => s.replace(WHITESPACE, ' ').trim();

const hasNofollow = (rel: string | undefined): boolean =>
  rel !== undefined && /(?:^|\s)nofollow(?:\s|$)/i.test(rel);

/**
 * Title, base, links and robots rules of an HTML document, in one streaming pass of
 * htmlparser2's tokenizer (no DOM). Links come from `a[href]`, `area[href]`, `frame[src]`,
 * `iframe[src]` and `<meta http-equiv="refresh">`; nothing inside `<script>`, `<style>`,
 * `<template>` or comments counts. `<noscript>` content does count: a crawler runs no scripts,
 * so it is what the page shows us. `<noframes>` and `<iframe>` content is raw text, as the HTML
 * standard parses it, so links there are not seen. A new `<a>` closes the open one, as in the
 * HTML standard; an anchor left open otherwise collects text until an end tag or the end of the
 * document closes it (a browser would rather repeat the link in the blocks that follow).
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

  const parser = new Parser({
    onopentag(name, attrs) {
      if (HIDDEN.has(name)) hidden++;
      if (hidden > 0) return;
      if (anchor !== undefined) {
        if (name === 'img' && attrs.alt !== undefined) anchor.text += attrs.alt;
        else if (BREAKS.has(name)) anchor.text += ' ';
      }
      switch (name) {
        case 'a':
          // htmlparser2 closes an open <a> only when it is the current element; the HTML
          // standard closes it whatever lies between, so text stops going to it here.
          endAnchor();
          anchor = push(attrs.href, '', hasNofollow(attrs.rel), 'a');
          break;
        case 'area':
          push(attrs.href, collapseWhitespace(attrs.alt ?? ''), hasNofollow(attrs.rel), 'area');
          break;
        case 'frame':
        case 'iframe':
          push(attrs.src, '', false, name);
          break;
        case 'base':
          if (baseHref === undefined && attrs.href !== undefined) baseHref = attrs.href.trim();
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
    },
    ontext(text) {
      if (hidden > 0) return;
      if (titleText !== undefined) titleText += text;
      if (anchor !== undefined) anchor.text += text;
    },
    onclosetag(name) {
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
    },
  }, { decodeEntities: true });

  function endAnchor(): void {
    if (anchor === undefined) return;
    anchor.text = collapseWhitespace(anchor.text);
    anchor = undefined;
  }

  function onMeta(attrs: Record<string, string>): void {
    const name = attrs.name?.trim().toLowerCase();
    if (attrs.content === undefined) return;
    if (name === 'robots' || (name !== undefined && name === agent)) robotsContents.push(attrs.content);
    else if (attrs['http-equiv']?.trim().toLowerCase() === 'refresh') push(refreshTarget(attrs.content), '', false, 'meta');
  }

  parser.end(html);
  return {
    title,
    baseHref,
    links,
    metaRobots: robotsContents.length === 0 ? NO_DIRECTIVES : parseRobotsDirectives(robotsContents, agent),
  };
}

import type { TagAttributes } from './html-scanner.js';
import { refreshTarget } from './meta-refresh.js';
import { NO_DIRECTIVES, parseRobotsDirectives, type RobotsDirectives } from './robots-directives.js';

/** The elements a link comes from; `meta` is a `<meta http-equiv="refresh">`. */
export type LinkTag = 'a' | 'area' | 'frame' | 'iframe' | 'meta';

/** One link of a page as written, with its anchor text. */
export interface ExtractedLink {
  /** The attribute value as written: entities decoded and trimmed, not resolved. */
  readonly href: string;
  /** Anchor text, whitespace collapsed: an `<a>`'s text with each image's alt in its place; an `<area>`'s alt; else `''`. */
  readonly text: string;
  /** `rel` has the `nofollow` keyword. */
  readonly nofollow: boolean;
  readonly tag: LinkTag;
}

/** What the scanner takes of an HTML page: title, base, links, robots directives, the visible text's SimHash. */
export interface HtmlExtract {
  /** The first `<title>` outside SVG, whitespace collapsed; `undefined` when there is none. */
  readonly title: string | undefined;
  /** The first `<base href>`, trimmed; `undefined` when there is none. */
  readonly baseHref: string | undefined;
  /** In document order, duplicates kept. */
  readonly links: readonly ExtractedLink[];
  /** From `<meta name="robots">` (and `<meta name=AGENT>`), all such tags together. */
  readonly metaRobots: RobotsDirectives;
  /** With the `simhash` option: the 64-bit SimHash of the visible text, 16 hex digits. */
  readonly simhash?: string;
}

export interface ExtractOptions {
  /** The crawler's robots name: `<meta name="tarantula">` then counts as well as `robots`. */
  readonly agent?: string;
  /** Also compute the SimHash of the visible text (near-duplicate detection). */
  readonly simhash?: boolean;
  /** Which hash of the SimHash's family (the `SimHasher`'s seed): 0, the default, is the one stored. */
  readonly simhashSeed?: number;
}

interface MutableLink {
  href: string;
  text: string;
  nofollow: boolean;
  tag: LinkTag;
}

/** Nothing inside these is part of the page as a reader sees it (SPEC §6: scripts, styles; `<template>` is inert). */
const HIDDEN: ReadonlySet<string> = new Set(['script', 'style', 'template']);
/** Tags whose start separates words of anchor text, as line breaks and blocks do on screen. */
const BREAKS: ReadonlySet<string> = new Set(['br', 'p', 'div', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'blockquote', 'ul', 'ol', 'table']);
const WHITESPACE = /\s+/g;

/** Runs of whitespace (any Unicode space, `&nbsp;` included) become one space; ends trimmed. */
export const collapseWhitespace = (s: string): string => (isCollapsed(s) ? s : s.replace(WHITESPACE, ' ').trim());

/**
 * Whether `s` has no whitespace but single spaces between other characters, so that collapsing
 * would change nothing: most anchor texts are, and a look at their characters costs a fraction
 * of the replace, which was a sixth of the scan's time. Any character below U+0020 and any
 * Unicode space other than U+0020 says no (a control character merely takes the slow way).
 */
function isCollapsed(s: string): boolean {
  let afterSpace = true; // a space first would be a leading one
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if (c < 0x20 || (c >= 0xa0 && isOtherSpace(c))) return false;
    else afterSpace = false;
  }
  return !afterSpace || s.length === 0;
}

/** The characters besides U+0020 that `\s` and `trim` take for whitespace, from U+00A0 up. */
const isOtherSpace = (c: number): boolean =>
  c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/** `rel` has the `nofollow` keyword. */
export const hasNofollow = (rel: string | undefined): boolean =>
  rel !== undefined && /(?:^|\s)nofollow(?:\s|$)/i.test(rel);

/**
 * What a page's elements say to a crawler, told element by element by whichever tokenizer and tree
 * rules drive it (`extractHtml` drives it with our scanner): links from `a[href]`, `area[href]`,
 * `frame[src]`, `iframe[src]` and `<meta http-equiv="refresh">`, with anchor text (image alts in
 * place, a space where a block or line break starts); the first title outside SVG; the first base;
 * meta robots rules. Nothing inside `<script>`, `<style>` or `<template>` counts. A new `<a>`
 * closes the open one, as in the HTML standard.
 *
 * @example
 * const page = new LinkCollector({});
 * page.opened('a', { get: (n) => (n === 'href' ? '/x' : undefined) }); page.text('X'); page.closed('a');
 * page.result().links //=> [{ href: '/x', text: 'X', nofollow: false, tag: 'a' }]
 */
export class LinkCollector {
  private readonly agent: string | undefined;
  private readonly links: MutableLink[] = [];
  private readonly robotsContents: string[] = [];
  private title: string | undefined;
  private titleText: string | undefined; // collecting while inside the first <title>
  private baseHref: string | undefined;
  private anchor: MutableLink | undefined;
  private hidden = 0; // depth inside HIDDEN elements
  private svg = 0; // depth inside <svg>, whose <title> is not the page's

  constructor(options: ExtractOptions) {
    this.agent = options.agent?.toLowerCase();
  }

  /** Whether text here is part of the page as a reader sees it (not inside a script, style or template). */
  get visible(): boolean {
    return this.hidden === 0;
  }

  /** Whether text here is kept (anchor or title text): a driver can skip decoding the rest. */
  get wantsText(): boolean {
    return this.hidden === 0 && (this.titleText !== undefined || this.anchor !== undefined);
  }

  opened(name: string, attrs: TagAttributes): void {
    if (HIDDEN.has(name)) this.hidden++;
    if (this.hidden > 0) return;
    if (this.anchor !== undefined) {
      if (name === 'img') this.anchor.text += attrs.get('alt') ?? '';
      else if (BREAKS.has(name)) this.anchor.text += ' ';
    }
    switch (name) {
      case 'a':
        this.endAnchor();
        this.anchor = this.push(attrs.get('href'), '', hasNofollow(attrs.get('rel')), 'a');
        break;
      case 'area':
        this.push(attrs.get('href'), collapseWhitespace(attrs.get('alt') ?? ''), hasNofollow(attrs.get('rel')), 'area');
        break;
      case 'frame':
      case 'iframe':
        this.push(attrs.get('src'), '', false, name);
        break;
      case 'base':
        if (this.baseHref === undefined) this.baseHref = attrs.get('href')?.trim();
        break;
      case 'meta':
        this.onMeta(attrs);
        break;
      case 'svg':
        this.svg++;
        break;
      case 'title':
        if (this.title === undefined && this.titleText === undefined && this.svg === 0) this.titleText = '';
        break;
    }
  }

  closed(name: string): void {
    if (HIDDEN.has(name)) {
      this.hidden--;
      return;
    }
    if (this.hidden > 0) return;
    if (name === 'a') {
      this.endAnchor();
    } else if (name === 'title' && this.titleText !== undefined) {
      this.title = collapseWhitespace(this.titleText);
      this.titleText = undefined;
    } else if (name === 'svg') {
      this.svg--;
    }
  }

  /** Character data, references already decoded. */
  text(text: string): void {
    if (!this.wantsText) return;
    if (this.titleText !== undefined) this.titleText += text;
    if (this.anchor !== undefined) this.anchor.text += text;
  }

  /** What was found; call once every open element has been closed. */
  result(): HtmlExtract {
    return {
      title: this.title,
      baseHref: this.baseHref,
      links: this.links,
      metaRobots: this.robotsContents.length === 0 ? NO_DIRECTIVES : parseRobotsDirectives(this.robotsContents, this.agent),
    };
  }

  private push(href: string | undefined, text: string, nofollow: boolean, tag: LinkTag): MutableLink | undefined {
    if (href === undefined) return undefined;
    const link = { href: href.trim(), text, nofollow, tag };
    this.links.push(link);
    return link;
  }

  private endAnchor(): void {
    if (this.anchor === undefined) return;
    this.anchor.text = collapseWhitespace(this.anchor.text);
    this.anchor = undefined;
  }

  private onMeta(attrs: TagAttributes): void {
    const name = attrs.get('name')?.trim().toLowerCase();
    const content = attrs.get('content');
    if (content === undefined) return;
    if (name === 'robots' || (name !== undefined && name === this.agent)) this.robotsContents.push(content);
    else if (attrs.get('http-equiv')?.trim().toLowerCase() === 'refresh') this.push(refreshTarget(content), '', false, 'meta');
  }
}

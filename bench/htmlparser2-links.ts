import { Parser } from 'htmlparser2';
import { BREAKS, collapseWhitespace, HIDDEN, hasNofollow, type ExtractOptions, type ExtractedLink, type HtmlExtract, type LinkTag } from '../src/parse/extract-html.js';
import { refreshTarget } from '../src/parse/meta-refresh.js';
import { NO_DIRECTIVES, parseRobotsDirectives } from '../src/parse/robots-directives.js';

type MutableLink = { -readonly [K in keyof ExtractedLink]: ExtractedLink[K] };

/**
 * What `extractHtml` did before it had a scanner of its own (kept as the reference it is measured
 * and checked against, see parsers.ts): title, base, links and robots rules, in one streaming pass
 * of htmlparser2's tokenizer (no DOM). Links come from `a[href]`, `area[href]`, `frame[src]`,
 * `iframe[src]` and `<meta http-equiv="refresh">`; nothing inside `<script>`, `<style>`,
 * `<template>` or comments counts. `<noscript>` content does count: a crawler runs no scripts,
 * so it is what the page shows us. `<noframes>` and `<iframe>` content is raw text, as the HTML
 * standard parses it, so links there are not seen. A new `<a>` closes the open one, as in the
 * HTML standard; an anchor left open otherwise collects text until an end tag or the end of the
 * document closes it (a browser would rather repeat the link in the blocks that follow).
 *
 * @example
 * extractWithHtmlparser2('<a href=x>y</a>').links //=> [{ href: 'x', text: 'y', nofollow: false, tag: 'a' }]
 */
export function extractWithHtmlparser2(html: string, options: ExtractOptions = {}): HtmlExtract {
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

import { Parser } from 'htmlparser2';
import { LinkCollector, type ExtractOptions, type HtmlExtract } from '../src/parse/link-collector.js';

/**
 * What `extractHtml` did before it had a scanner of its own, kept as the reference it is measured
 * and checked against (see parsers.ts): the same {@link LinkCollector}, driven by htmlparser2's
 * tokenizer and tree rules (entities decoded by htmlparser2) instead of `scanHtml`'s.
 *
 * @example
 * extractWithHtmlparser2('<a href=x>y</a>').links //=> [{ href: 'x', text: 'y', nofollow: false, tag: 'a' }]
 */
export function extractWithHtmlparser2(html: string, options: ExtractOptions = {}): HtmlExtract {
  const page = new LinkCollector(options);
  let current: Record<string, string> = {};
  const reader = { get: (key: string): string | undefined => current[key] };
  const parser = new Parser(
    {
      onopentag: (name, attrs) => {
        current = attrs;
        page.opened(name, reader);
      },
      onclosetag: (name) => page.closed(name),
      ontext: (text) => page.text(text),
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return page.result();
}

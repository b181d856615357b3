import { extractHtml } from '../parse/extract-html.js';

/** Pages of a new host rendered both ways before `auto` decides whether its pages need the browser. */
export const SAMPLE_PAGES = 3;

/** What `auto` does with a page whose scripts may write it but that is no app shell. */
export type RenderChoice = 'render' | 'plain' | 'sample';

interface HostSample {
  /** Samples begun, and finished. */
  started: number;
  finished: number;
  decision: 'render' | 'plain' | undefined;
}

/**
 * `render = auto`'s per-host decision, learned as Crawlee's adaptive crawler learns it: the first
 * {@link SAMPLE_PAGES} pages of a host whose scripts may write them are rendered and their links compared
 * with the fetched HTML's; the host's pages are rendered from the first sample where the browser
 * found a link the fetch missed, and never again once every sample found none. While samples are
 * still being rendered, further pages of the host are taken as fetched. The decisions live as long
 * as the crawl's process: a resumed crawl samples again.
 *
 * @example
 * const sampling = new HostSampling();
 * sampling.choose('a.test') //=> 'sample'
 * sampling.learn('a.test', true); sampling.choose('a.test') //=> 'render'
 */
export class HostSampling {
  private readonly hosts = new Map<string, HostSample>();

  /** Whether a page of `host` is rendered as learned, fetched only, or rendered as a sample (then {@link learn}). */
  choose(host: string): RenderChoice {
    let sample = this.hosts.get(host);
    if (sample === undefined) this.hosts.set(host, (sample = { started: 0, finished: 0, decision: undefined }));
    if (sample.decision !== undefined) return sample.decision;
    if (sample.started >= SAMPLE_PAGES) return 'plain';
    sample.started++;
    return 'sample';
  }

  /** What a sample of `host` showed: whether the browser found links the fetch missed (false for a sample that failed). */
  learn(host: string, gained: boolean): void {
    const sample = this.hosts.get(host);
    if (sample === undefined || sample.decision !== undefined) return;
    sample.finished++;
    if (gained) sample.decision = 'render';
    else if (sample.finished >= SAMPLE_PAGES) sample.decision = 'plain';
  }
}

/**
 * Whether the rendered DOM of a page links to a URL its fetched HTML does not (links resolved
 * against the page and its `<base>`, fragments dropped).
 *
 * @example
 * foundMoreLinks('http://a.test/', '<a href=/x>x</a>', '<a href=/x>x</a><a href=/y>y</a>') //=> true
 */
export function foundMoreLinks(url: string, fetched: string, rendered: string): boolean {
  const plain = linkSet(url, fetched);
  for (const link of linkSet(url, rendered)) if (!plain.has(link)) return true;
  return false;
}

function linkSet(url: string, html: string): Set<string> {
  const page = extractHtml(html);
  let base: URL;
  try {
    base = new URL(page.baseHref ?? url, url);
  } catch {
    base = new URL(url);
  }
  const links = new Set<string>();
  for (const { href } of page.links) {
    try {
      const target = new URL(href, base);
      target.hash = '';
      links.add(target.href);
    } catch {
      // An href no URL can be made of is no link, in either copy.
    }
  }
  return links;
}

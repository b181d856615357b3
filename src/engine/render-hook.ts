import { detectType } from '../parse/detect-type.js';
import { fetchDocument } from '../fetch/fetch-document.js';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { FetchResponse } from '../model/fetch-response.js';
import { isAppShell } from '../render/app-shell.js';
import type { RenderNetwork } from '../render/page-renderer.js';
import type { CrawlContext } from './crawl-context.js';

/**
 * The fetch stage's `render` hook (`render` = auto or always): an HTML page that needs it (always;
 * in auto, an app shell) is loaded in the browser, whose requests stay on the page's origin, obey
 * its robots.txt, go out with the crawler's fetch options and are archived with the crawl's WARC.
 * Undefined when the crawl renders nothing.
 */
export function renderHook(ctx: CrawlContext): ((req: CrawlRequest, response: FetchResponse) => Promise<Buffer | undefined>) | undefined {
  const renderer = ctx.renderer;
  if (renderer === undefined) return undefined;
  const always = ctx.config.render === 'always';
  const { robots } = ctx.hosts;
  const { options } = ctx.fetcher;
  const archive = ctx.fetcher.archive;
  const agent = ctx.config.userAgent;
  return async (req, response) => {
    if (response.status >= 300 || detectType(response.headers['content-type'], req.url, response.body) !== 'html') return undefined;
    if (!always && !isAppShell(response.body)) return undefined;
    const origin = new URL(req.url).origin;
    const network: RenderNetwork = {
      allowed: async (url) => {
        // Other hosts are out: their politeness slot is not the page's.
        if (new URL(url).origin !== origin) return false;
        const verdict = await robots.get(origin);
        return verdict.state === 'ready' && verdict.rules.isAllowed(url, agent);
      },
      fetch: (url) => fetchDocument(url, options),
      ...(archive ? { archive: (url: string, res: FetchResponse) => archive.record(url, res) } : {}),
    };
    return Buffer.from(await renderer.render(req.url, response, network, options.signal));
  };
}

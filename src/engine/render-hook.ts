import { detectType } from '../parse/detect-type.js';
import { fetchDocument } from '../fetch/fetch-document.js';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { FetchResponse } from '../model/fetch-response.js';
import { isAppShell, scriptsMayWrite } from '../render/app-shell.js';
import { foundMoreLinks, HostSampling } from '../render/host-sampling.js';
import type { RenderNetwork } from '../render/page-renderer.js';
import { makeListFilter } from '../url/url-lists.js';
import { hostKey } from '../url/url-parts.js';
import { crawlPoliteness, type CrawlContext } from './crawl-context.js';
import { HostGate } from './host-gate.js';

/**
 * The gate of the browser's requests to other hosts: through the slots of the crawl's frontier,
 * when it lends them; else with a rest of its own for each host.
 */
function thirdPartyGate(ctx: CrawlContext): HostGate {
  const { frontier, config } = ctx;
  if (frontier.borrow !== undefined && frontier.giveBack !== undefined && frontier.forgo !== undefined) {
    const lender = { borrow: frontier.borrow.bind(frontier), giveBack: frontier.giveBack.bind(frontier), forgo: frontier.forgo.bind(frontier) };
    // A page waiting for a render thread holds its host's slot: a render waits for it half its time at most, then goes on without.
    return new HostGate(ctx.hosts.politeness, lender, config.renderTimeoutMs / 2);
  }
  return new HostGate(crawlPoliteness(config, ctx.hosts.robots));
}

/**
 * The fetch stage's `render` hook (`render` = auto or always): an HTML page that needs it is loaded
 * in the browser — always; in auto, an app shell, and a page whose scripts may write it, of a host
 * whose sampled pages showed the browser finding links the fetch missed ({@link HostSampling}); a
 * page whose scripts cannot add to it ({@link scriptsMayWrite}) never. The browser's requests obey robots.txt, go out with the crawler's fetch options
 * (the address guard, the proxy, cookies) and are archived with the crawl's WARC; they stay on the
 * page's origin, or with `render-third-party` may go to other hosts that the reject list does not
 * name, each taking a slot of its host in the crawl's frontier ({@link HostGate}). Undefined when the
 * crawl renders nothing.
 */
export function renderHook(ctx: CrawlContext): ((req: CrawlRequest, response: FetchResponse) => Promise<Buffer | undefined>) | undefined {
  const renderer = ctx.renderer;
  if (renderer === undefined) return undefined;
  const { config } = ctx;
  const always = config.render === 'always';
  const { robots } = ctx.hosts;
  const { options } = ctx.fetcher;
  const archive = ctx.fetcher.archive;
  const agent = config.userAgent;
  const sampling = new HostSampling();
  const rejected = makeListFilter([], config.rejectList);
  const gate = config.renderThirdParty ? thirdPartyGate(ctx) : undefined;
  const robotsAllow = async (url: URL): Promise<boolean> => {
    const verdict = await robots.get(url.origin);
    return verdict.state === 'ready' && verdict.rules.isAllowed(url.href, agent);
  };
  const render = (req: CrawlRequest, response: FetchResponse): Promise<string> => {
    const origin = new URL(req.url).origin;
    const network: RenderNetwork = {
      allowed: async (href) => {
        const url = new URL(href);
        if (url.origin === origin) return robotsAllow(url);
        // Another host's slot is not the page's: only with render-third-party, never one the reject list names.
        return gate !== undefined && rejected(href, href) === undefined && robotsAllow(url);
      },
      fetch: (href) => {
        const url = new URL(href);
        return url.origin === origin || gate === undefined ? fetchDocument(href, options) : gate.through(hostKey(url.href), () => fetchDocument(href, options));
      },
      ...(archive ? { archive: (url: string, res: FetchResponse) => archive.record(url, res) } : {}),
    };
    return renderer.render(req.url, response, network, options.signal);
  };
  return async (req, response) => {
    if (response.status >= 300 || detectType(response.headers['content-type'], req.url, response.body) !== 'html') return undefined;
    if (always || isAppShell(response.body)) return Buffer.from(await render(req, response));
    if (!scriptsMayWrite(response.body)) return undefined;
    const choice = sampling.choose(req.host);
    if (choice === 'plain') return undefined;
    if (choice === 'render') return Buffer.from(await render(req, response));
    // A sample: a page the fetch read well enough is not failed by the browser; it is taken as fetched.
    let dom: string;
    try {
      dom = await render(req, response);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      sampling.learn(req.host, false);
      return undefined;
    }
    sampling.learn(req.host, foundMoreLinks(req.url, new TextDecoder().decode(response.body), dom));
    return Buffer.from(dom);
  };
}

import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import type { FetchResponse } from '../model/fetch-response.js';

/** Flags for a headless Chromium that reaches out on its own for nothing, and runs as root in a container. */
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

/** Resource types no DOM depends on: aborted, never fetched. */
const SKIPPED_TYPES = new Set(['image', 'media', 'font', 'texttrack', 'eventsource', 'websocket', 'manifest', 'other']);

/** A rendered DOM beyond this many characters is cut: a page that grows without end is no page to parse. */
const MAX_DOM_CHARS = 10_000_000;

/**
 * Pages rendered in one browser context before it is closed and a new one made: a context is not
 * made and torn down for every page, and what a context keeps (cache, storage) stays bounded by
 * this many pages.
 */
export const PAGES_PER_CONTEXT = 16;

/**
 * A page has settled once it was loaded, none of its requests is in flight, and none has begun or
 * ended for this long. Playwright's `networkidle` waits 500 ms of silence: here every request the
 * page makes is answered by the crawler, none waits on a slow network after the crawler has
 * answered it, so a script that acts on an answer acts at once.
 */
export const QUIET_MS = 100;

/** How the browser's requests reach the network: through the crawler, with its rules. */
export interface RenderNetwork {
  /** May the browser have this URL? (its host, robots.txt, the lists) */
  allowed(url: string): Promise<boolean>;
  /** The crawler's own fetch of a URL (guard, proxy, cookies, limits). */
  fetch(url: string): Promise<FetchResponse>;
  /** Archives a response the browser received (`--warc`). */
  archive?(url: string, response: FetchResponse): Promise<void>;
}

/** Why a render failed: `render-timeout` (the page never settled in time) or `render-crashed` (the browser went away). */
export class RenderError extends Error {
  constructor(readonly code: 'render-timeout' | 'render-crashed', message: string) {
    super(message);
  }
}

/** What the renderer is launched with. */
export interface RendererOptions {
  readonly executablePath: string;
  readonly threads: number;
  readonly timeoutMs: number;
}

/**
 * Loads fetched HTML documents in headless Chromium and hands back the DOM their scripts built. The
 * document is served to the page from what the crawler fetched (never fetched twice); every other
 * request the page makes goes through {@link RenderNetwork}, one at a time, so a page's render counts
 * as one request to its host. Images, fonts and media are not fetched; popups are closed; downloads
 * and navigations away are refused. A browser context serves {@link PAGES_PER_CONTEXT} pages and is
 * then closed, so memory stays bounded. A page has settled once none of its requests is in flight
 * and none has begun or ended for {@link QUIET_MS}. `playwright-core` is imported only when the
 * first page is rendered.
 *
 * @example
 * const renderer = new PageRenderer({ executablePath: '/usr/bin/chromium', threads: 1, timeoutMs: 20000 });
 * const html = await renderer.render('http://a.test/', fetched, network); //=> '<html>…the links app.js inserted…</html>'
 */
export class PageRenderer {
  private browser: Promise<Browser> | undefined;
  /** The context new pages open in. */
  private current: ContextLease | undefined;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(private readonly opts: RendererOptions) {}

  /** The rendered DOM of a fetched HTML document. Rejects with a {@link RenderError}, or whatever the browser threw. */
  async render(url: string, document: FetchResponse, network: RenderNetwork, signal?: AbortSignal): Promise<string> {
    await this.turn();
    let lease: ContextLease | undefined;
    let browser: Browser | undefined;
    try {
      browser = await this.launched();
      lease = this.lease(browser);
      const page = await (await lease.context).newPage();
      try {
        return await this.withTimeout(this.load(page, url, document, network), page, lease, signal);
      } finally {
        await page.close().catch(() => undefined);
      }
    } catch (err) {
      if (err instanceof RenderError) throw err;
      // The browser went away under the page: that page fails, the next one gets a new browser.
      if (browser !== undefined && !browser.isConnected()) {
        throw new RenderError('render-crashed', `the browser crashed: ${(err as Error).message.split('\n')[0]}`);
      }
      throw err;
    } finally {
      if (lease) this.giveBack(lease);
      this.leave();
    }
  }

  /** Closes the browser. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = undefined;
    this.current = undefined;
    await browser?.then((b) => b.close(), () => undefined);
  }

  private launched(): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('the renderer is closed'));
    if (this.browser === undefined) {
      const launching = import('playwright-core').then(async ({ chromium }) => {
        const browser = await chromium.launch({ executablePath: this.opts.executablePath, headless: true, args: CHROMIUM_ARGS });
        // A browser that went away (killed, crashed) is not kept: the next page launches another.
        browser.on('disconnected', () => {
          if (this.browser === launching) this.browser = undefined;
        });
        return browser;
      });
      this.browser = launching;
    }
    const browser = this.browser;
    // A failed launch is not kept: the next page tries again.
    browser.catch(() => {
      if (this.browser === browser) this.browser = undefined;
    });
    return browser;
  }

  /** The context the next page opens in: the current one until it has had {@link PAGES_PER_CONTEXT} pages, or its browser is gone. */
  private lease(browser: Browser): ContextLease {
    const current = this.current;
    if (current !== undefined && !current.retired && current.browser === browser && current.pages < PAGES_PER_CONTEXT) {
      current.pages++;
      current.open++;
      return current;
    }
    if (current !== undefined) this.retire(current);
    const context = browser.newContext({ acceptDownloads: false, serviceWorkers: 'block', javaScriptEnabled: true }).then(async (c) => {
      // Whatever a page's own routes do not answer (a popup's requests) is refused.
      await c.route('**/*', (route) => route.abort('blockedbyclient').catch(() => undefined));
      return c;
    });
    const lease: ContextLease = { browser, context, pages: 1, open: 1, retired: false };
    this.current = lease;
    return lease;
  }

  private giveBack(lease: ContextLease): void {
    lease.open--;
    if (lease.retired && lease.open === 0) void lease.context.then((c) => c.close()).catch(() => undefined);
  }

  /** No page opens in `lease` any more; it is closed once its open pages are done. */
  private retire(lease: ContextLease): void {
    lease.retired = true;
    if (this.current === lease) this.current = undefined;
    if (lease.open === 0) void lease.context.then((c) => c.close()).catch(() => undefined);
  }

  private async load(page: Page, url: string, document: FetchResponse, network: RenderNetwork): Promise<string> {
    // A popup is another page the site opened: closed at once, its requests never made.
    page.on('popup', (other) => void other.close().catch(() => undefined));
    let served = false;
    // One request at a time: the page holds its host's politeness slot, and no more.
    let queue: Promise<unknown> = Promise.resolve();
    await page.route('**/*', (route) => {
      const request = route.request();
      if (!served && request.isNavigationRequest() && request.url() === url) {
        served = true;
        return fulfil(route, document);
      }
      if (request.isNavigationRequest() || request.method() !== 'GET' || SKIPPED_TYPES.has(request.resourceType())) return route.abort('blockedbyclient').catch(() => undefined);
      const next = queue.then(async () => {
        // A page closed under its render (a timeout, a stop) asks for nothing more.
        if (page.isClosed()) return;
        const target = request.url();
        if (!(await network.allowed(target))) return route.abort('blockedbyclient');
        let response: FetchResponse;
        try {
          response = await network.fetch(target);
        } catch {
          return route.abort('failed');
        }
        await network.archive?.(target, response);
        return fulfil(route, response);
      }).catch(() => undefined);
      queue = next;
      return next;
    });
    const traffic = new PageTraffic(page);
    await page.goto(url, { waitUntil: 'load', timeout: 0 });
    await traffic.idle(QUIET_MS);
    const html = await page.content();
    return html.length > MAX_DOM_CHARS ? html.slice(0, MAX_DOM_CHARS) : html;
  }

  /**
   * The render, or a {@link RenderError} once `timeoutMs` has passed, or the stop's reason. The page is
   * closed under a render cut short, and its context retired: a page that hung may have left it unwell.
   */
  private withTimeout(render: Promise<string>, page: Page, lease: ContextLease, signal?: AbortSignal): Promise<string> {
    return new Promise((resolve, reject) => {
      const cut = (err: Error): void => {
        reject(err);
        this.retire(lease);
        void page.close().catch(() => undefined);
      };
      const timer = setTimeout(() => cut(new RenderError('render-timeout', `the page did not settle within ${this.opts.timeoutMs} ms`)), this.opts.timeoutMs);
      const onAbort = (): void => cut(new Error('the crawl is stopping'));
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      render.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      });
    });
  }

  private async turn(): Promise<void> {
    if (this.running < this.opts.threads) {
      this.running++;
      return;
    }
    await new Promise<void>((go) => this.waiting.push(go));
  }

  private leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/**
 * The requests of a page in flight as the browser counts them: from its `request` event to its
 * `requestfinished` or `requestfailed`. The browser's count, not the routes': a request that waits
 * inside the browser (for the HTTP cache's lock on a URL already being fetched) reaches no route
 * until the one before it has ended, but has begun all the same.
 */
class PageTraffic {
  private inFlight = 0;
  private last = Date.now();
  private wake: (() => void) | undefined;

  /** Set when the page went away (closed, its renderer crashed, its browser gone): it will never be idle. */
  private gone = false;

  constructor(page: Page) {
    const moved = (by: number) => (): void => {
      this.inFlight += by;
      this.last = Date.now();
      this.wake?.();
    };
    page.on('request', moved(1));
    page.on('requestfinished', moved(-1));
    page.on('requestfailed', moved(-1));
    const gone = (): void => {
      this.gone = true;
      this.wake?.();
    };
    page.on('close', gone);
    page.on('crash', gone);
  }

  /** Resolves once no request is in flight and none has begun or ended for `quietMs`; rejects when the page went away first. */
  async idle(quietMs: number): Promise<void> {
    for (;;) {
      if (this.gone) throw new Error('the page went away before it settled');
      const quiet = Date.now() - this.last;
      if (this.inFlight <= 0 && quiet >= quietMs) return;
      await new Promise<void>((go) => {
        const timer = this.inFlight <= 0 ? setTimeout(go, quietMs - quiet) : undefined;
        this.wake = () => {
          clearTimeout(timer);
          go();
        };
      });
      this.wake = undefined;
    }
  }
}

/** A browser context shared by up to {@link PAGES_PER_CONTEXT} pages, some of them open. */
interface ContextLease {
  readonly browser: Browser;
  readonly context: Promise<BrowserContext>;
  /** Pages opened in it so far. */
  pages: number;
  /** Pages open in it now. */
  open: number;
  retired: boolean;
}

/** Answers a browser's request with a response the crawler fetched (decoded: its Content-Encoding and length no longer apply). */
function fulfil(route: Route, response: FetchResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  return route.fulfill({ status: response.status, headers, body: response.body }).catch(() => undefined);
}

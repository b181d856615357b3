import type { Browser, BrowserContext, Route } from 'playwright-core';
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

/** How the browser's requests reach the network: through the crawler, with its rules. */
export interface RenderNetwork {
  /** May the browser have this URL? (same host, robots.txt) */
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
 * and navigations away are refused. Each page has a fresh browser context, closed after it, so
 * memory stays bounded. `playwright-core` is imported only when the first page is rendered.
 *
 * @example
 * const renderer = new PageRenderer({ executablePath: '/usr/bin/chromium', threads: 1, timeoutMs: 20000 });
 * const html = await renderer.render('http://a.test/', fetched, network); //=> '<html>…the links app.js inserted…</html>'
 */
export class PageRenderer {
  private browser: Promise<Browser> | undefined;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(private readonly opts: RendererOptions) {}

  /** The rendered DOM of a fetched HTML document. Rejects with a {@link RenderError}, or whatever the browser threw. */
  async render(url: string, document: FetchResponse, network: RenderNetwork, signal?: AbortSignal): Promise<string> {
    await this.turn();
    try {
      const browser = await this.launched();
      const context = await browser.newContext({ acceptDownloads: false, serviceWorkers: 'block', javaScriptEnabled: true });
      try {
        return await this.withTimeout(this.load(context, url, document, network), context, signal);
      } finally {
        await context.close().catch(() => undefined);
      }
    } catch (err) {
      if (err instanceof RenderError) throw err;
      // The browser went away under the page: that page fails, the next one gets a new browser.
      if (this.browser !== undefined && !(await this.browser.then((b) => b.isConnected(), () => false))) {
        this.browser = undefined;
        throw new RenderError('render-crashed', `the browser crashed: ${(err as Error).message.split('\n')[0]}`);
      }
      throw err;
    } finally {
      this.leave();
    }
  }

  /** Closes the browser. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = undefined;
    await browser?.then((b) => b.close(), () => undefined);
  }

  private launched(): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('the renderer is closed'));
    this.browser ??= import('playwright-core').then(({ chromium }) =>
      chromium.launch({ executablePath: this.opts.executablePath, headless: true, args: CHROMIUM_ARGS }),
    );
    const browser = this.browser;
    // A failed launch is not kept: the next page tries again.
    browser.catch(() => {
      if (this.browser === browser) this.browser = undefined;
    });
    return browser;
  }

  private async load(context: BrowserContext, url: string, document: FetchResponse, network: RenderNetwork): Promise<string> {
    const page = await context.newPage();
    // A popup is another page the site opened: closed at once, its requests never made.
    context.on('page', (other) => {
      if (other !== page) void other.close().catch(() => undefined);
    });
    let served = false;
    // One request to the host at a time: the page holds its host's politeness slot, and no more.
    let queue: Promise<unknown> = Promise.resolve();
    await context.route('**/*', (route) => {
      const request = route.request();
      if (!served && request.isNavigationRequest() && request.url() === url) {
        served = true;
        return fulfil(route, document);
      }
      if (request.isNavigationRequest() || request.method() !== 'GET' || SKIPPED_TYPES.has(request.resourceType())) return route.abort('blockedbyclient').catch(() => undefined);
      const next = queue.then(async () => {
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
    await page.goto(url, { waitUntil: 'networkidle', timeout: 0 });
    await queue;
    const html = await page.content();
    return html.length > MAX_DOM_CHARS ? html.slice(0, MAX_DOM_CHARS) : html;
  }

  /** The render, or a {@link RenderError} once `timeoutMs` has passed (the context is closed under it), or the stop's reason. */
  private withTimeout(render: Promise<string>, context: BrowserContext, signal?: AbortSignal): Promise<string> {
    return new Promise((resolve, reject) => {
      const cut = (err: Error): void => {
        reject(err);
        void context.close().catch(() => undefined);
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

/** Answers a browser's request with a response the crawler fetched (decoded: its Content-Encoding and length no longer apply). */
function fulfil(route: Route, response: FetchResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding') headers[name] = value;
  return route.fulfill({ status: response.status, headers, body: response.body }).catch(() => undefined);
}

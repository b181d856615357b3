import type { OperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { Politeness } from '../frontier/politeness.js';
import { fetchDocument, type FetchOptions } from '../fetch/fetch-document.js';
import { type FetchResponse, type Validators } from '../model/fetch-response.js';
import { FetchError } from '../fetch/fetch-error.js';
import type { Fetched, Outcome } from '../model/outcome.js';
import { passOutcomes } from './pass-outcomes.js';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../fetch/retry-after.js';
import { retryDelayMs } from '../fetch/retry-delay.js';
import { SITEMAP_MAX_BYTES } from '../sitemap/read-sitemap.js';
import { noRoom } from '../store/no-room.js';

/** What {@link fetchPage} needs besides the fetch options: politeness, retry and redirect limits, and its hooks. */
export interface FetchPageOptions extends FetchOptions {
  readonly politeness: Politeness;
  readonly maxRetries: number;
  readonly maxRedirects: number;
  /** Stored validators of a page already crawled (recrawl): makes the request conditional. */
  readonly validatorsOf?: (req: CrawlRequest) => Validators | undefined;
  /** Told when the HTTP exchange is over, before parsing: politeness counts from there (the host is free). */
  readonly fetched?: (req: CrawlRequest) => void;
  /** Archives every response (a WARC), and the DOM a browser rendered from it; the request is done only once it has resolved. */
  readonly archive?: (req: CrawlRequest, response: FetchResponse, rendered?: Buffer) => Promise<void>;
  /**
   * Renders a fetched page in a browser (`render`): its DOM, or undefined when the page needs none.
   * It runs before `fetched`, so the host stays taken while the browser's requests go to it.
   */
  readonly render?: (req: CrawlRequest, response: FetchResponse) => Promise<Buffer | undefined>;
}

/**
 * Fetches a request and sorts the answer: 2xx (and 304 on recrawl) go on to parsing; a redirect
 * becomes a new link for the filters; 429, 5xx and network errors are retried with back-off
 * (honouring Retry-After) up to `max-retries`; anything else fails with a named code. A fetch cut
 * short by the crawl's stop (`signal`) is `unfinished`: still pending, not failed.
 *
 * @example
 * of(req).pipe(fetchPage(opts)) //=> { kind: 'fetched', req, response } or an Outcome
 */
export function fetchPage(opts: FetchPageOptions): OperatorFunction<CrawlRequest | Outcome, Fetched | Outcome> {
  return passOutcomes((req: CrawlRequest) =>
    // A sitemap may decode to 50 MiB (sitemaps.org), whatever the cap on documents; max-body-size still bounds the download.
    fetchDocument(req.url, req.sitemap === undefined ? opts : { ...opts, maxDecodedSize: SITEMAP_MAX_BYTES }, opts.validatorsOf?.(req)).then(
      (response) => {
        const value = classify(req, response, opts);
        const done = (value: Fetched | Outcome): Fetched | Outcome | Promise<Fetched | Outcome> => {
          opts.fetched?.(req);
          // A render the stop cut short leaves the page pending: it is fetched, rendered and archived again.
          return opts.archive && value.kind !== 'unfinished' ? archived(opts.archive, req, response, value) : value;
        };
        if (opts.render === undefined || value.kind !== 'fetched') return done(value);
        return opts.render(req, response).then(
          (rendered) => done(rendered === undefined ? value : { ...value, rendered }),
          (err: unknown) => done(renderFailure(req, response, err, opts)),
        );
      },
      (err: unknown) => {
        const value = failure(req, err as FetchError, opts);
        opts.fetched?.(req);
        // A response that came but cannot be read (a broken gzip) fails here, and is archived as it came.
        const { response } = err as FetchError;
        return response && opts.archive ? archived(opts.archive, req, response, value) : value;
      },
    ),
  );
}

/**
 * `value` once the exchange is in the archive. One the archive could not write (a full disk) is not
 * done: it stays pending (`unfinished`) for the next run, and the archive's failure stops the crawl.
 * Any other error of the archive fails the request, as an error of the unit does.
 */
function archived<T extends Fetched | Outcome>(archive: NonNullable<FetchPageOptions['archive']>, req: CrawlRequest, response: FetchResponse, value: T): Promise<T | Outcome> {
  return archive(req, response, value.kind === 'fetched' ? value.rendered : undefined).then(
    () => value,
    (err: unknown): Outcome => {
      if (noRoom((err as { code?: string }).code)) return { kind: 'unfinished', req };
      throw err;
    },
  );
}

function classify(req: CrawlRequest, response: FetchResponse, opts: FetchPageOptions): Fetched | Outcome {
  const { status } = response;
  opts.politeness.recordFetch(req.host, response.durationMs);
  if ((status >= 200 && status < 300) || status === 304) return { kind: 'fetched', req, response };
  // Most hosts have no /sitemap.xml: a sitemap that answers 4xx is simply missing, no failure, no warning.
  if (req.sitemap !== undefined && status >= 400 && status < 500) return { kind: 'sitemap', req, status, urls: 0, sitemaps: 0, links: [] };
  const location = response.headers['location'];
  if (status >= 300 && status < 400 && location !== undefined) {
    if (req.redirects >= opts.maxRedirects)
      return { kind: 'failed', req, status, code: 'too-many-redirects', message: `more than ${opts.maxRedirects} redirects` };
    const links = [{
      href: location, base: req.url, depth: req.depth, originalUrl: req.originalUrl, redirects: req.redirects + 1,
      ...(req.sitemap !== undefined ? { sitemap: req.sitemap } : {}),
    }];
    return { kind: 'redirect', req, status, location, links };
  }
  if (status === 429 || status >= 500) {
    const asked = retryAfterMs(response.headers['retry-after']);
    if (req.attempt < opts.maxRetries && (asked === undefined || asked <= MAX_RETRY_AFTER_MS)) {
      opts.politeness.backoff(req.host, asked ?? retryDelayMs(req.attempt));
      return retry(req, `http-${status}`, `HTTP ${status}${asked !== undefined ? `, Retry-After ${asked / 1000} s` : ''}`);
    }
  }
  return { kind: 'failed', req, status, code: `http-${status}`, message: `HTTP ${status}` };
}

function failure(req: CrawlRequest, err: FetchError, opts: FetchPageOptions): Outcome {
  // Whatever the error says (aborted, a reset body), a fetch cut short by the crawl's stop is no failure of the URL.
  if (opts.signal?.aborted) return { kind: 'unfinished', req };
  opts.politeness.recordFetch(req.host, 0);
  // The SSRF guard refused the address: a drop like the filters', not a failure of the site.
  if (err.code === 'private-address') return { kind: 'skipped', req, reason: 'private-address', message: err.message };
  if (err.action === 'retry' && req.attempt < opts.maxRetries) {
    opts.politeness.backoff(req.host, retryDelayMs(req.attempt));
    return retry(req, err.code, err.message);
  }
  return { kind: 'failed', req, code: err.code, message: err.message };
}

/** A render that failed fails its page (`render-timeout`, `render-crashed`), unless the crawl's stop cut it: then it stays pending. */
function renderFailure(req: CrawlRequest, response: FetchResponse, err: unknown, opts: FetchPageOptions): Outcome {
  if (opts.signal?.aborted) return { kind: 'unfinished', req };
  const e = err as { code?: string; message?: string };
  return { kind: 'failed', req, status: response.status, code: e.code ?? 'render-error', message: e.message ?? String(err) };
}

const retry = (req: CrawlRequest, code: string, message: string): Outcome => ({
  kind: 'retry',
  req,
  retry: { ...req, attempt: req.attempt + 1 },
  code,
  message,
});

import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { WarcArchive } from '../archive/warc-archive.js';
import { addressGuard, type AddressGuard } from '../fetch/address-guard.js';
import { CookieDispatcher } from '../fetch/cookie-dispatcher.js';
import { createDispatcher, type DispatcherOptions } from '../fetch/create-dispatcher.js';
import { fetchDocument, type FetchOptions } from '../fetch/fetch-document.js';
import type { FetchError } from '../fetch/fetch-error.js';
import { proxySettings } from '../fetch/proxy-settings.js';
import type { CrawlLogger } from '../log/create-logger.js';
import type { CrawlerConfig } from '../model/config.js';
import type { FetchResponse } from '../model/fetch-response.js';
import { CookieFile } from '../state/cookie-file.js';
import { STATE_DIR } from '../state/crawl-state.js';

/** robots.txt beyond this is not read (RFC 9309 §2.5 asks for at least 500 KiB). */
const ROBOTS_MAX_BYTES = 512_000;

/** Where a crawl's connections go, for tests and embedders: the name lookup, and a wrapper of the connector. */
export type NetworkHooks = Pick<DispatcherOptions, 'lookup' | 'wrapConnector'>;

/** How a crawl's requests go out: one dispatcher, one set of limits, one signal that cuts them all short. */
export interface Fetcher {
  readonly dispatcher: Dispatcher;
  /** The options of every page fetch, the crawl's signal among them. */
  readonly options: FetchOptions;
  /** Fetches a robots.txt (smaller limits), archived like a page when the crawl writes a WARC. */
  readonly robotsTxt: (url: string) => Promise<FetchResponse>;
  /** The SSRF guard: the connector asks it at connect time, admission about literal addresses. */
  readonly guard: AddressGuard;
  /** The WARC every fetch is archived in (`warc-file`), if any. */
  readonly archive: WarcArchive | undefined;
  /** Aborts every fetch in flight: the crawl is being stopped. */
  readonly abort: AbortController;
  /** Closes the connections, the WARC and the cookie jar once nothing is in flight. */
  close(): Promise<void>;
}

/**
 * Builds the fetch side of a crawl from its configuration: the SSRF guard, the proxy, TLS, the
 * cookie jar, the WARC hook on every response.
 *
 * @example
 * const fetcher = createFetcher(config, log, { archiving, network: undefined });
 * await fetchDocument('http://a.test/', fetcher.options);
 */
export function createFetcher(
  config: CrawlerConfig,
  log: CrawlLogger,
  opts: { readonly archiving?: { readonly archive: WarcArchive; readonly addresses: Map<string, string> }; readonly network?: NetworkHooks },
): Fetcher {
  const abort = new AbortController();
  // Every fetch in flight listens to this one signal.
  setMaxListeners(0, abort.signal);
  const archive = opts.archiving?.archive;
  const guard = addressGuard({ allowPrivate: config.allowPrivateAddresses, trustedHosts: config.startingPoints.map((s) => new URL(s).hostname) });
  const proxy = proxySettings(config.proxy, process.env);
  if (config.insecure) log.warn('insecure: TLS certificates are not verified; anyone on the path can read and change what is crawled');
  // The logger writes their passwords as `***`.
  if (proxy) log.info({ http: proxy.http, https: proxy.https }, 'requests go through a proxy');
  const direct = createDispatcher({
    resolve: config.resolve,
    connectTimeoutMs: config.connectTimeoutMs,
    connectionsPerOrigin: config.maxPerHost,
    idleOrigins: config.idleHosts,
    guard,
    tls: { caFile: config.caFile, insecure: config.insecure },
    http2: config.http2,
    ...(proxy ? { proxy } : {}),
    ...(opts.archiving ? { remoteAddresses: opts.archiving.addresses } : {}),
    ...opts.network,
  });
  const cookies = config.cookies ? CookieFile.open(join(config.repository, STATE_DIR, 'cookies.json'), (msg) => log.warn(msg)) : undefined;
  const dispatcher = cookies ? new CookieDispatcher(direct, cookies) : direct;
  const options: FetchOptions = {
    dispatcher,
    headers: config.headers,
    userAgent: config.userAgent,
    headerTimeoutMs: config.headerTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    downloadTimeoutMs: config.downloadTimeoutMs,
    maxBodySize: config.maxBodySize,
    maxDecodedSize: config.maxDecodedSize,
    signal: abort.signal,
    ...(archive ? { capture: true } : {}),
  };
  const robotsOptions = { ...options, maxBodySize: ROBOTS_MAX_BYTES, maxDecodedSize: ROBOTS_MAX_BYTES };
  return {
    dispatcher,
    options,
    // robots.txt is archived too, as Heritrix does: a replay shows what the crawler was allowed.
    robotsTxt: (url) => {
      const fetched = fetchDocument(url, robotsOptions);
      if (archive === undefined) return fetched;
      return fetched.then(
        (res) => archive.record(url, res).then(() => res),
        async (err: unknown) => {
          // A robots.txt that came but cannot be read (a broken gzip) is archived as it came, and still fails.
          const { response } = err as FetchError;
          if (response) await archive.record(url, response);
          throw err;
        },
      );
    },
    guard,
    archive,
    abort,
    // The crawl is over: nothing is in flight, and idle keep-alive sockets need no graceful goodbye.
    close: async () => {
      await Promise.all([
        dispatcher.destroy(),
        archive?.close(),
        cookies?.then((file) => file.save()).catch((err: unknown) => log.error({ err }, 'cannot save the cookies')),
      ]);
    },
  };
}

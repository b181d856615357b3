import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentTypeOf, isNotModified, validatorsOf } from './file-metadata.js';
import { findFile } from './find-file.js';
import { hostSites, type HeaderOverride, type HostSite } from './host-sites.js';
import { portLinks } from './port-links.js';
import { originForm, parseHost, parseTarget, type RequestTarget } from './request-target.js';
import { headerOf, sendFailure, sendStatusPage } from './status-page.js';

/** One request the server received, logged when it arrives and completed when its response ends. */
export interface FixtureRequest {
  /** The virtual host, lowercased and without port (the raw Host header when it is not a valid name). */
  readonly host: string;
  /** The request target in origin-form, query included, as sent. */
  readonly path: string;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  /** Epoch milliseconds (sub-millisecond, monotonic within the process) when the request arrived. */
  readonly start: number;
  /** When the response finished or the connection closed; NaN while it is in progress. */
  end: number;
  /** The status sent; 0 while the response is in progress. */
  status: number;
}

/** Extension points for tests. */
export interface FixtureHooks {
  /**
   * Runs first for every request; return true when it has taken the response (it may answer later,
   * e.g. to be slow), false to let the server serve the file.
   */
  readonly handle?: (req: IncomingMessage, res: ServerResponse, at: { host: string; path: string }) => boolean;
}

/** Options of {@link startFixtureServer}. */
export interface FixtureServerOptions {
  /** The folder whose subfolders are the sites: `root/HOST/PATH`. */
  readonly root: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /**
   * Default true: absolute `http://HOST/` links (and Location headers) naming a host of the root get
   * this server's port, so that a crawl reaching the hosts through curl-style
   * `--resolve HOST:PORT:127.0.0.1` can cross from host to host. Applies to text types only, and to
   * the hosts whose folders exist when the server starts. False serves the bytes as they are.
   */
  readonly portInLinks?: boolean;
  readonly hooks?: FixtureHooks;
}

/** A running fixture server. */
export interface FixtureServer {
  readonly port: number;
  /** `http://HOST:PORT/PATH` for a name served here (resolve HOST:PORT to 127.0.0.1 to fetch it). */
  url(host: string, path?: string): string;
  /** Every request in order of arrival; a test may clear it (`requests.length = 0`). */
  readonly requests: FixtureRequest[];
  /** Stops listening and drops open (keep-alive) connections. */
  close(): Promise<void>;
}

type Rewrite = (text: string) => string;

const now = (): number => performance.timeOrigin + performance.now();

/**
 * Serves `root/HOST/PATH` as static files, choosing HOST by the Host header so that many names share
 * one port. `/` and `dir/` serve `index.html`; `dir` redirects to `dir/`; `/p?q` serves the file
 * `p%3Fq` when it exists, else `p` (the query is otherwise ignored). Responses carry Content-Type by
 * extension (no charset), Last-Modified (file mtime), Date and ETag, and honour If-None-Match /
 * If-Modified-Since with 304. `root/HOST/_headers.json` maps request paths to header overrides
 * (`status` sets the status; `null` removes a header); a path listed there needs no file. Unknown
 * hosts and missing files get 404, targets that would leave the root once decoded 400, methods
 * other than GET and HEAD 405.
 *
 * @example
 * const server = await startFixtureServer({ root: DEMO_ROOT });
 * await fetch(server.url('127.0.0.1', '/'), { headers: { host: 'www.tarantula.test' } });
 * server.requests[0] //=> { host: 'www.tarantula.test', path: '/', method: 'GET', status: 200, ... }
 * await server.close();
 */
export async function startFixtureServer(opts: FixtureServerOptions): Promise<FixtureServer> {
  const sites = hostSites(opts.root);
  const hostNames = opts.portInLinks === false ? [] : await hostsIn(opts.root);
  const requests: FixtureRequest[] = [];
  const handle = opts.hooks?.handle;
  let rewrite: Rewrite | undefined;

  const server = createServer((req, res) => {
    const { authority, target: raw } = originForm(req.url ?? '/');
    const hostHeader = authority ?? req.headers.host;
    const host = parseHost(hostHeader);
    const entry: FixtureRequest = {
      host: host ?? hostHeader ?? '',
      path: raw,
      method: req.method ?? 'GET',
      headers: req.headers,
      start: now(),
      end: Number.NaN,
      status: 0,
    };
    requests.push(entry);
    const done = (): void => {
      if (!Number.isNaN(entry.end)) return;
      entry.end = now();
      entry.status = res.statusCode;
    };
    res.once('finish', done).once('close', done);
    try {
      if (handle?.(req, res, { host: entry.host, path: raw })) return;
    } catch (err) {
      return sendFailure(res, err);
    }
    const site = host === undefined ? Promise.resolve(undefined) : sites(host);
    serve(req, res, parseTarget(raw), site, rewrite).catch((err: unknown) => sendFailure(res, err));
  });
  server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  if (hostNames.length > 0 && port !== 80) rewrite = portLinks(hostNames, port);

  return {
    port,
    requests,
    url: (host, path = '/') => `http://${host}:${port}${path.startsWith('/') ? path : '/' + path}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The folder names under root that are valid host names. */
async function hostsIn(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && parseHost(e.name) === e.name).map((e) => e.name);
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget | undefined,
  sitePromise: Promise<HostSite | undefined>,
  rewrite: Rewrite | undefined,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendStatusPage(res, 405);
  }
  const site = await sitePromise;
  if (!target) return sendStatusPage(res, 400);
  if (!site) return sendStatusPage(res, 404);
  const override =
    (target.query !== undefined ? site.overrides.get(`${target.path}?${target.query}`) : undefined) ??
    site.overrides.get(target.path);
  const found = findFile(site.dir, target);
  if (found === 'directory' && !override) {
    res.setHeader('Location', target.path + '/' + (target.query === undefined ? '' : '?' + target.query));
    return sendStatusPage(res, 301);
  }
  const file = typeof found === 'object' ? found : undefined;
  if (!file && !override) return sendStatusPage(res, 404);

  let status = file ? 200 : 404;
  if (file) {
    const { etag, lastModified } = validatorsOf(file);
    res.setHeader('Content-Type', contentTypeOf(file.typeName));
    res.setHeader('Last-Modified', lastModified);
    res.setHeader('ETag', etag);
  }
  if (override) status = applyOverride(res, override, status);
  const location = headerOf(res, 'location');
  if (rewrite && location !== undefined) res.setHeader('Location', rewrite(location));
  if (file && status === 200 && isNotModified(req.headers, headerOf(res, 'etag'), headerOf(res, 'last-modified'))) {
    res.removeHeader('Content-Type');
    res.statusCode = 304;
    res.end();
    return;
  }
  if (!file) return sendStatusPage(res, status);
  res.statusCode = status;
  const text = rewrite !== undefined && isText(headerOf(res, 'content-type'));
  if (req.method === 'HEAD' && !text) {
    res.setHeader('Content-Length', file.size);
    res.end();
    return;
  }
  // Read synchronously, as it was found: a fixture is small, and fs/promises' readFile costs six times the CPU.
  let body = readFileSync(file.path);
  if (text) body = Buffer.from(rewrite(body.toString('latin1')), 'latin1');
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Sets the override's headers (null removes one) and returns its status, or `status` when it has none. */
function applyOverride(res: ServerResponse, override: HeaderOverride, status: number): number {
  for (const [name, value] of Object.entries(override)) {
    if (name === 'status') status = value as number;
    else if (value === null) res.removeHeader(name);
    else res.setHeader(name, String(value));
  }
  return status;
}

function isText(contentType: string | undefined): boolean {
  return contentType !== undefined && /^text\/|[/+](?:xml|json|javascript)\b/i.test(contentType);
}

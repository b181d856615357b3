import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CrawlerConfig } from '../model/config.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { exitWith, EXIT } from '../app/exit-status.js';
import { isLoopbackHost } from '../config/network-values.js';
import { bearerCheck } from './serve-token.js';

/** The most a POST /seeds body may hold (a million short URLs is the input files' job). */
export const MAX_SEEDS_BYTES = 1 << 20;

/** Nothing but this origin: the dashboard's script, styles, icon and polls. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The verbs: POSTs, each with the token. */
const POSTS: readonly string[] = ['/pause', '/resume', '/stop', '/seeds'];

export type Reply = readonly [status: number, type: string, body: string];
export const json = (status: number, value: unknown): Reply => [status, 'application/json; charset=utf-8', `${JSON.stringify(value)}\n`];

/** What a server of a crawl answers: its GETs by path, and its verbs. */
export interface Routes {
  readonly gets: Readonly<Record<string, () => Reply | Promise<Reply>>>;
  post(path: string, req: IncomingMessage): Promise<Reply>;
}

/** The body of a POST, or undefined when it holds more than {@link MAX_SEEDS_BYTES}. */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_SEEDS_BYTES) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Serves `routes` on `config.serve` (SPEC §12): a POST needs `Authorization: Bearer TOKEN` (401
 * without, 403 with another); so does a GET when the server listens beyond loopback. Resolves once
 * it listens (told to `listening` with its URL), to its `close`.
 *
 * @throws an error with exit status 1 when the address cannot be bound (in use, not this machine's).
 * @example
 * const close = await serveHttp(config, log, token, { gets: { '/status': () => json(200, {}) }, post: … });
 */
export async function serveHttp(config: CrawlerConfig, log: CrawlLogger, token: string, routes: Routes, listening?: (url: string) => void): Promise<() => Promise<void>> {
  const address = config.serve!;
  const check = bearerCheck(token);
  const openGets = isLoopbackHost(address.host);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<Reply> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const posts = POSTS.includes(path);
    const get = Object.hasOwn(routes.gets, path) ? routes.gets[path] : undefined;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method !== (posts ? 'POST' : 'GET')) {
      res.setHeader('Allow', posts ? 'POST' : 'GET, HEAD');
      return json(posts || get !== undefined ? 405 : 404, { error: `no ${req.method} ${path}` });
    }
    // On loopback, a name other than a loopback one is a web page that rebound its own name to
    // 127.0.0.1 (DNS rebinding) to read what GETs give without a token.
    const host = /^\[?([^\]]*?)\]?(?::\d+)?$/.exec(req.headers.host ?? '')?.[1] ?? '';
    if (openGets && !isLoopbackHost(host)) return json(421, { error: `this server answers for loopback names only, not ${JSON.stringify(host)}` });
    if (posts || !openGets) {
      const auth = check(req.headers.authorization);
      if (auth === 'missing') {
        res.setHeader('WWW-Authenticate', 'Bearer realm="tarantula"');
        return json(401, { error: 'Authorization: Bearer TOKEN needed (the token of serve-token-file, or REPOSITORY/.tarantula/serve-token)' });
      }
      if (auth === 'wrong') return json(403, { error: 'wrong token' });
    }
    return posts ? routes.post(path, req) : get !== undefined ? get() : json(404, { error: `no ${path}` });
  };

  const server = createServer((req, res) => {
    handle(req, res).then(
      ([code, type, body]) => {
        res.writeHead(code, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': CSP });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        log.error({ err }, `--serve: ${req.method} ${req.url} failed`);
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(exitWith(EXIT.cannotRun, `cannot serve on ${address.host}:${address.port}: ${err.code ?? err.message}`)));
    server.listen(address.port, address.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  const url = `http://${host}:${port}/`;
  log.info({ url }, `serving metrics, status, the dashboard and the control API on ${url}`);
  listening?.(url);
  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections (a browser's, a scraper's) would hold the close open.
    server.closeAllConnections();
    await closed;
  };
}

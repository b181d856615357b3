import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveCrawl, ServeCrawl } from '../app/live-crawl.js';
import { exitWith, EXIT } from '../app/exit-status.js';
import { isLoopbackHost } from '../config/network-values.js';
import { crawlSampler } from './crawl-sampler.js';
import { DASHBOARD_CSS, DASHBOARD_JS, dashboardPage, FAVICON_SVG, livePanels } from './dashboard.js';
import { METRICS_TYPE, metricsText } from './metrics-text.js';
import { bearerCheck, serveToken } from './serve-token.js';

/** The most a POST /seeds body may hold (a million short URLs is the input files' job). */
const MAX_SEEDS_BYTES = 1 << 20;

/** Nothing but this origin: the dashboard's script, styles, icon and polls. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

type Reply = readonly [status: number, type: string, body: string];
const json = (status: number, value: unknown): Reply => [status, 'application/json; charset=utf-8', `${JSON.stringify(value)}\n`];

/** The crawl's state as GET /status gives it: where it is, the documents fetched, what waits, and the stats as stats.json has them. */
function status(live: LiveCrawl, pagesPerSecond: number): unknown {
  const { stats, frontier } = live.ctx;
  return { state: live.state, documents: stats.documents, pending: frontier.size, inFlight: frontier.inFlight, hosts: frontier.hosts, pagesPerSecond, stats: stats.summary() };
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
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
 * Serves a running crawl over HTTP (SPEC §12): GET /metrics (Prometheus), /status (JSON), / (the
 * live dashboard, with its /dashboard.js, /dashboard.css and /panels), and POST /pause, /resume,
 * /stop, /seeds. A POST needs `Authorization: Bearer TOKEN` (401 without, 403 with another); so
 * does a GET when the server listens beyond loopback. Resolves once it listens, to its `close`.
 *
 * @throws an error with exit status 1 when the address cannot be bound (in use, not this machine's).
 * @example
 * await runCrawl(config, log, { ...commandLine(), serve: serveCrawl });
 * // curl -X POST -H "Authorization: Bearer $(cat out/.tarantula/serve-token)" localhost:9464/pause
 */
export const serveCrawl: ServeCrawl = async (live) => {
  const { config, log } = live.ctx;
  const address = config.serve!;
  const check = bearerCheck(await serveToken(config.serveTokenFile, config.repository, log));
  const openGets = isLoopbackHost(address.host);
  const sampler = crawlSampler(() => live.ctx.stats.documents);

  const post = async (path: string, req: IncomingMessage): Promise<Reply> => {
    if (live.state === 'stopping') return json(409, { error: 'the crawl is stopping', state: live.state });
    switch (path) {
      case '/pause':
        live.pause();
        log.info('paused by POST /pause: no new request starts');
        return json(200, { state: live.state });
      case '/resume':
        live.resume();
        log.info('resumed by POST /resume');
        return json(200, { state: live.state });
      case '/stop':
        live.stop('POST /stop');
        return json(202, { state: live.state });
      case '/seeds': {
        if (!/^text\/plain\b/i.test(req.headers['content-type'] ?? '')) return json(415, { error: 'POST /seeds takes text/plain: a URL a line' });
        const text = await readBody(req);
        if (text === undefined) return json(413, { error: `a body of at most ${MAX_SEEDS_BYTES} bytes` });
        const added = live.addSeeds(text);
        log.info({ taken: added.taken, refused: added.refused.length }, 'seeds added by POST /seeds');
        return json(202, added);
      }
    }
    return json(404, { error: `no ${path}` });
  };

  const get = (path: string): Reply | undefined => {
    switch (path) {
      case '/metrics':
        return [200, METRICS_TYPE, metricsText(live, sampler.last)];
      case '/status':
        return json(200, status(live, sampler.last.pagesPerSecond));
      case '/':
        return [200, 'text/html; charset=utf-8', dashboardPage(live, sampler)];
      case '/panels':
        return [200, 'text/html; charset=utf-8', livePanels(live, sampler)];
      case '/dashboard.js':
        return [200, 'text/javascript; charset=utf-8', DASHBOARD_JS];
      case '/dashboard.css':
        return [200, 'text/css; charset=utf-8', DASHBOARD_CSS];
      case '/favicon.svg':
        return [200, 'image/svg+xml', FAVICON_SVG];
    }
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<Reply> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const posts = ['/pause', '/resume', '/stop', '/seeds'].includes(path);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method !== (posts ? 'POST' : 'GET')) {
      res.setHeader('Allow', posts ? 'POST' : 'GET, HEAD');
      return json(posts || get(path) !== undefined ? 405 : 404, { error: `no ${req.method} ${path}` });
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
    return posts ? post(path, req) : (get(path) ?? json(404, { error: `no ${path}` }));
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
    server.once('error', (err: NodeJS.ErrnoException) => {
      sampler.stop();
      reject(exitWith(EXIT.cannotRun, `cannot serve on ${address.host}:${address.port}: ${err.code ?? err.message}`));
    });
    server.listen(address.port, address.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  log.info({ url: `http://${host}:${port}/` }, `serving metrics, status, the dashboard and the control API on http://${host}:${port}/`);
  return async () => {
    sampler.stop();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections (a browser's, a scraper's) would hold the close open.
    server.closeAllConnections();
    await closed;
  };
};

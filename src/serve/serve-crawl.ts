import type { LiveCrawl, ServeCrawl } from '../app/live-crawl.js';
import { crawlSampler } from './crawl-sampler.js';
import { DASHBOARD_CSS, DASHBOARD_JS, dashboardPage, FAVICON_SVG, livePanels } from './dashboard.js';
import { METRICS_TYPE, metricsText } from './metrics-text.js';
import { json, MAX_SEEDS_BYTES, readBody, serveHttp, type Reply } from './serve-http.js';
import { serveToken } from './serve-token.js';

/** The crawl's state as GET /status gives it: where it is, the documents fetched, what waits, and the stats as stats.json has them. */
function status(live: LiveCrawl, pagesPerSecond: number): unknown {
  const { stats, frontier } = live.ctx;
  return { state: live.state, documents: stats.documents, pending: frontier.size, inFlight: frontier.inFlight, hosts: frontier.hosts, pagesPerSecond, stats: stats.summary() };
}

/**
 * Serves a running crawl over HTTP (SPEC §12): GET /metrics (Prometheus), /status (JSON), / (the
 * live dashboard, with its /dashboard.js, /dashboard.css and /panels), and POST /pause, /resume,
 * /stop, /seeds, on the terms of {@link serveHttp}. Resolves once it listens, to its `close`.
 *
 * @throws an error with exit status 1 when the address cannot be bound (in use, not this machine's).
 * @example
 * await runCrawl(config, log, { ...commandLine(), serve: serveCrawl });
 * // curl -X POST -H "Authorization: Bearer $(cat out/.tarantula/serve-token)" localhost:9464/pause
 */
export const serveCrawl: ServeCrawl = async (live, listening) => {
  const { config, log } = live.ctx;
  const token = await serveToken(config.serveTokenFile, config.repository, log);
  const sampler = crawlSampler(() => live.ctx.stats.documents);

  const post = async (path: string, req: Parameters<typeof readBody>[0]): Promise<Reply> => {
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
    }
    if (!/^text\/plain\b/i.test(req.headers['content-type'] ?? '')) return json(415, { error: 'POST /seeds takes text/plain: a URL a line' });
    const text = await readBody(req);
    if (text === undefined) return json(413, { error: `a body of at most ${MAX_SEEDS_BYTES} bytes` });
    const added = live.addSeeds(text);
    log.info({ taken: added.taken, refused: added.refused.length }, 'seeds added by POST /seeds');
    return json(202, added);
  };

  const html = 'text/html; charset=utf-8';
  const gets: Record<string, () => Reply> = {
    '/metrics': () => [200, METRICS_TYPE, metricsText(live, sampler.last)],
    '/status': () => json(200, status(live, sampler.last.pagesPerSecond)),
    '/': () => [200, html, dashboardPage(live, sampler)],
    '/panels': () => [200, html, livePanels(live, sampler)],
    '/dashboard.js': () => [200, 'text/javascript; charset=utf-8', DASHBOARD_JS],
    '/dashboard.css': () => [200, 'text/css; charset=utf-8', DASHBOARD_CSS],
    '/favicon.svg': () => [200, 'image/svg+xml', FAVICON_SVG],
  };
  let close: () => Promise<void>;
  try {
    close = await serveHttp(config, log, token, { gets, post }, listening);
  } catch (err) {
    sampler.stop();
    throw err;
  }
  return async () => {
    sampler.stop();
    await close();
  };
};

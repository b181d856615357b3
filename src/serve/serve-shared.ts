import { join, resolve } from 'node:path';
import type { CrawlerConfig } from '../model/config.js';
import { seedsOfText } from '../app/live-crawl.js';
import type { ServeShared, SharedCrawl } from '../distributed/supervise-workers.js';
import { STATE_DIR } from '../state/crawl-state.js';
import { METRICS_TYPE } from './metrics-text.js';
import { json, MAX_SEEDS_BYTES, readBody, serveHttp, type Reply } from './serve-http.js';
import { serveToken, TOKEN_FILE } from './serve-token.js';
import { relayWorkerMetrics } from './worker-metrics.js';

/** A worker that does not answer its supervisor within this is left out of a scrape. */
const WORKER_TIMEOUT_MS = 5000;

/**
 * A worker's own `--serve`: on loopback, on a port of its own (its supervisor's server reads it),
 * with its command's token (`serve-token-file`, or the one the command made at start).
 *
 * @example
 * workerServing(config).serve //=> { host: '127.0.0.1', port: 0 }
 */
export function workerServing(config: CrawlerConfig): CrawlerConfig {
  return { ...config, serve: { host: '127.0.0.1', port: 0 }, serveTokenFile: config.serveTokenFile ?? join(resolve(config.repository), STATE_DIR, TOKEN_FILE) };
}

/** GET `path` of every running worker's server, by slot; a worker that does not answer (it is ending) is left out. */
async function fromWorkers(crawl: SharedCrawl, path: string): Promise<Map<number, string>> {
  const replies = await Promise.all(
    [...crawl.workers].map(async ([slot, url]) => {
      try {
        const res = await fetch(new URL(path, url), { signal: AbortSignal.timeout(WORKER_TIMEOUT_MS) });
        return res.ok ? ([slot, await res.text()] as const) : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return new Map(replies.filter((r) => r !== undefined));
}

/**
 * Serves a shared crawl from its command (SPEC §12): GET /metrics, each worker's figures with a
 * `worker` label and the crawl's totals; GET /status, the crawl's state and each worker's status;
 * POST /pause, /resume, /stop, /seeds, for the whole crawl through Redis, whichever machine's
 * command gets them. The dashboard is a one-process crawl's.
 *
 * @example
 * await superviseWorkers(config, log, argv, process.stdout, serveShared)
 */
export const serveShared: ServeShared = async (crawl) => {
  const { config, log } = crawl;
  const token = await serveToken(config.serveTokenFile, config.repository, log);
  const post = async (path: string, req: Parameters<typeof readBody>[0]): Promise<Reply> => {
    const state = await crawl.state();
    if (state === 'stopping') return json(409, { error: 'the crawl is stopping', state });
    if (path !== '/seeds') {
      const verb = path === '/pause' ? 'pause' : path === '/resume' ? 'resume' : 'stop';
      await crawl.verb(verb);
      log.info(`POST ${path}: for every worker of the crawl`);
      return json(verb === 'stop' ? 202 : 200, { state: await crawl.state() });
    }
    if (!/^text\/plain\b/i.test(req.headers['content-type'] ?? '')) return json(415, { error: 'POST /seeds takes text/plain: a URL a line' });
    const text = await readBody(req);
    if (text === undefined) return json(413, { error: `a body of at most ${MAX_SEEDS_BYTES} bytes` });
    const { urls, refused } = seedsOfText(text);
    await crawl.addSeeds(urls);
    log.info({ taken: urls.length, refused: refused.length }, 'seeds added by POST /seeds, for every worker of the crawl');
    return json(202, { taken: urls.length, refused });
  };
  const gets = {
    '/metrics': async (): Promise<Reply> => [200, METRICS_TYPE, relayWorkerMetrics(await fromWorkers(crawl, '/metrics'))],
    '/status': async (): Promise<Reply> => {
      const workers = Object.fromEntries([...(await fromWorkers(crawl, '/status'))].map(([slot, text]) => [slot, JSON.parse(text) as unknown]));
      return json(200, { state: await crawl.state(), workers });
    },
  };
  return serveHttp(config, log, token, { gets, post });
};

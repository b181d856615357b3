import type { RunCrawlOptions } from '../app/run-crawl.js';
import type { ServeCrawl } from '../app/live-crawl.js';
import type { ServeShared } from '../distributed/supervise-workers.js';
import type { CrawlerConfig } from '../model/config.js';

/**
 * `serve` (`--serve [HOST:]PORT`): the server of the running crawl, imported only when it is set,
 * so that a crawl without it loads none of it.
 *
 * @example
 * await runCrawl(config, log, { ...commandLine(), ...(await serveOption(config)) });
 */
export async function serveOption(config: CrawlerConfig): Promise<Pick<RunCrawlOptions, 'serve'>> {
  return config.serve === undefined ? {} : { serve: (await import('../serve/serve-crawl.js')).serveCrawl };
}

/**
 * `--serve` of a shared crawl: the command's server (`command`), and each worker's own (`worker`,
 * with the `config` it runs: on loopback, a port of its own); nothing when it is not set.
 *
 * @example
 * const serving = await sharedServeOption(config); serving?.worker.config.serve //=> { host: '127.0.0.1', port: 0 }
 */
export async function sharedServeOption(config: CrawlerConfig): Promise<{ command: ServeShared; worker: { config: CrawlerConfig; serve: ServeCrawl } } | undefined> {
  if (config.serve === undefined) return undefined;
  const [{ serveShared, workerServing }, { serveCrawl }] = await Promise.all([import('../serve/serve-shared.js'), import('../serve/serve-crawl.js')]);
  return { command: serveShared, worker: { config: workerServing(config), serve: serveCrawl } };
}

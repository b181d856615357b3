import type { RunCrawlOptions } from '../app/run-crawl.js';
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

import type { Pipeline } from '../engine/pipeline.js';
import type { CrawlLogger } from '../log/create-logger.js';
import type { CrawlerConfig } from '../model/config.js';
import { runWorker } from '../distributed/run-worker.js';
import { superviseWorkers } from '../distributed/supervise-workers.js';
import { WORKER_SLOT_ENV } from '../distributed/worker-env.js';
import { sharedServeOption } from './serve-option.js';
import { watch } from './watch.js';

/**
 * A crawl with a shared frontier (SPEC §8), for `tarantula crawl` and `tarantula run` alike: this
 * process is worker SLOT when its supervisor says so (and runs `pipeline` over the shared frontier,
 * one round), else it starts the workers (this same command) and supervises them; with `--watch`
 * (`watching`), round after round, each a recrawl of the last, `period` hours apart. With `--serve`,
 * the command serves the crawl and each worker its own figures.
 *
 * @example
 * await runShared(config, log, pipeline) //=> 0 once the shared crawl is done
 */
export async function runShared(config: CrawlerConfig, log: CrawlLogger, pipeline?: Pipeline, watching = false): Promise<number> {
  const slot = process.env[WORKER_SLOT_ENV];
  const serving = await sharedServeOption(config);
  if (slot !== undefined) return runWorker(serving?.worker.config ?? config, log, Number(slot), pipeline, serving?.worker.serve);
  const round = async (): Promise<{ exitCode: number }> => ({ exitCode: await superviseWorkers(config, log, process.argv.slice(1), process.stdout, serving?.command) });
  return watching ? watch(config, log, round) : round().then((r) => r.exitCode);
}

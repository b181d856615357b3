import type { LiveCrawl, RunState } from '../app/live-crawl.js';
import type { CrawlLogger } from '../log/create-logger.js';
import type { FrontierRedis } from './connect-frontier.js';

/**
 * The verbs of `--serve` on a shared crawl (SPEC §12): whichever command's server gets them, they
 * go to Redis, and every worker on every machine reads them. Two crawl-level keys, beside the
 * crawl's round hash and, like it, out of the per-round and per-host keys: `t:{CRAWL}:control`, a
 * hash (`paused`, `stop`), cleared by each command as it starts so that no run begins paused or
 * stopped; and `t:{CRAWL}:seeds`, the seeds posted, kept for the crawl's life so that a worker that
 * starts later (a resumed crawl, another machine) widens its scope to them too.
 */
const controlKey = (crawlId: string): string => `t:{${crawlId}}:control`;
const seedsKey = (crawlId: string): string => `t:{${crawlId}}:seeds`;

/** How often a worker reads the verbs: pause and stop reach it within this (plus a request's end). */
const FOLLOW_MS = 250;

/** A verb for the whole crawl. */
export type CrawlVerb = 'pause' | 'resume' | 'stop';

/**
 * Posts a verb for every worker of the crawl.
 *
 * @example
 * await postVerb(redis, 'news', 'pause') // every worker stops starting requests within a moment
 */
export async function postVerb(redis: FrontierRedis, crawlId: string, verb: CrawlVerb): Promise<void> {
  if (verb === 'stop') await redis.hset(controlKey(crawlId), 'stop', '1');
  else await redis.hset(controlKey(crawlId), 'paused', verb === 'pause' ? '1' : '0');
}

/** Posts seeds (absolute URLs) for every worker: each widens its scope to them and admits them (Redis's seen-set admits each once). */
export async function postSeeds(redis: FrontierRedis, crawlId: string, urls: readonly string[]): Promise<void> {
  if (urls.length > 0) await redis.rpush(seedsKey(crawlId), ...urls);
}

/** Where the whole crawl is, as the verbs left it. */
export async function crawlState(redis: FrontierRedis, crawlId: string): Promise<RunState> {
  const { paused, stop } = await redis.hgetall(controlKey(crawlId));
  return stop === '1' ? 'stopping' : paused === '1' ? 'paused' : 'running';
}

/** A new run of the command: no earlier pause or stop holds it. */
export async function clearVerbs(redis: FrontierRedis, crawlId: string): Promise<void> {
  await redis.del(controlKey(crawlId));
}

/**
 * Applies the crawl's verbs to this worker's crawl as they change: pause, resume, stop (as SIGTERM
 * does: in-flight requests stay pending) and the seeds posted, all of them once at start. Returns
 * the function that stops following. A failed read is left to the next: a Redis that is gone
 * stops the worker through its frontier.
 *
 * @example
 * const unfollow = followVerbs(redis, 'news', live, log);
 */
export function followVerbs(redis: FrontierRedis, crawlId: string, live: LiveCrawl, log: CrawlLogger): () => void {
  let seedsRead = 0;
  let paused = false;
  let timer: NodeJS.Timeout | undefined;
  let following = true;
  const read = async (): Promise<void> => {
    const [[, verbs], [, seeds]] = (await redis.multi().hgetall(controlKey(crawlId)).lrange(seedsKey(crawlId), seedsRead, -1).exec()) as [[unknown, Record<string, string>], [unknown, string[]]];
    if (!following || live.state === 'stopping') return;
    if (seeds.length > 0) {
      seedsRead += seeds.length;
      live.addSeeds(seeds.join('\n'));
    }
    if (verbs.stop === '1') {
      live.stop('stopped through the crawl\'s control (POST /stop)');
      return;
    }
    if ((verbs.paused === '1') !== paused) {
      paused = verbs.paused === '1';
      if (paused) live.pause();
      else live.resume();
      log.info(paused ? 'paused through the crawl\'s control (POST /pause): no new request starts' : 'resumed through the crawl\'s control (POST /resume)');
    }
  };
  const next = (): void => {
    timer = setTimeout(() => {
      read().catch(() => undefined).finally(() => {
        if (following) next();
      });
    }, FOLLOW_MS);
    // Following the verbs never keeps a finished worker alive.
    timer.unref();
  };
  void read().catch(() => undefined).finally(() => following && next());
  return () => {
    following = false;
    clearTimeout(timer);
  };
}

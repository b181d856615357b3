import type { FrontierRedis } from './connect-frontier.js';

/**
 * The rounds of a shared crawl (SPEC §5, §8): running the command again after a round completed
 * starts the next one, a recrawl. What a round shares in Redis (seen-set, queues, leases, counters)
 * lives under a crawl id of its own, so a new round starts from clean keys without deleting the old
 * ones' (an `UNLINK` of `t:{CRAWL/ROUND}:*` frees them), and one crawl-level hash, `t:{CRAWL}:crawl`,
 * says which round is current and which completed last: `round`, `completed`.
 */

/** The crawl-level hash of `crawlId`. */
const crawlKey = (crawlId: string): string => `t:{${crawlId}}:crawl`;

/** Moves to the next round when the current one completed; the round to work, atomically for every machine's supervisor. */
const BEGIN_ROUND = `
local round = tonumber(redis.call('HGET', KEYS[1], 'round') or '1')
if tonumber(redis.call('HGET', KEYS[1], 'completed') or '0') >= round then
  round = round + 1
  redis.call('HSET', KEYS[1], 'round', round)
end
return round`;

/**
 * The round a command works: the current one, or the next when the current one completed (the
 * command then recrawls). Called once per command, before its workers start.
 *
 * @example
 * await beginRound(redis, 'news') //=> 1 for a new crawl, 2 when run again after it completed
 */
export async function beginRound(redis: FrontierRedis, crawlId: string): Promise<number> {
  return Number(await redis.eval(BEGIN_ROUND, 1, crawlKey(crawlId)));
}

/** The current round of the crawl (1 before any). */
export async function currentRound(redis: FrontierRedis, crawlId: string): Promise<number> {
  return Number((await redis.hget(crawlKey(crawlId), 'round')) ?? '1');
}

/** Round `round` completed: nothing of it is queued, leased or in flight (or its page limit was reached). */
export async function completeRound(redis: FrontierRedis, crawlId: string, round: number): Promise<void> {
  await redis.eval(`if tonumber(redis.call('HGET', KEYS[1], 'completed') or '0') < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'completed', ARGV[1]) end`, 1, crawlKey(crawlId), round);
}

/** The id the keys of round `round` are named by: the crawl's own for the first round (so crawls made before rounds existed go on), `CRAWL/ROUND` after. */
export function roundCrawlId(crawlId: string, round: number): string {
  return round <= 1 ? crawlId : `${crawlId}/${round}`;
}

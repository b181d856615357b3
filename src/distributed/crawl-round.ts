import type { Cluster, Redis } from 'ioredis';
import type { FrontierConnection, FrontierRedis } from './connect-frontier.js';

/**
 * The rounds of a shared crawl (SPEC §5, §8): running the command again after a round completed
 * starts the next one, a recrawl. What a round shares in Redis (seen-set, queues, leases, counters)
 * lives under a crawl id of its own, so a new round starts from clean keys, and the keys of the rounds
 * before it are unlinked once it has begun ({@link dropOldRounds}); one crawl-level hash,
 * `t:{CRAWL}:crawl`, says which round is current, which completed last and up to which the keys are
 * gone: `round`, `completed`, `dropped`.
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

/**
 * The keys of the first round that are the crawl's, not the round's: its rounds, shards, verbs and
 * seeds posted, robots.txt answers and recrawl schedule (`t:{TAG}:` then these).
 */
const CRAWL_KEYS = /^(crawl|shards|control|seeds|visits|robots:.*)$/;
/** Keys unlinked in one command. */
const UNLINK_BATCH = 500;

/**
 * Unlinks the keys of the rounds before `round` (seen-sets, queues, leases, counters), which no round
 * from `round` on reads: called once `round` has begun, by every machine's command (the second finds
 * nothing left). Keys are found with SCAN on every master, by their shards' hash tags; each UNLINK
 * names keys of one tag, so of one cluster slot. Returns how many keys went.
 *
 * @example
 * await dropOldRounds(connection, 'news', 3) //=> 5123: the keys of rounds 1 and 2, but the crawl's own
 */
export async function dropOldRounds({ redis, cluster }: FrontierConnection, crawlId: string, round: number): Promise<number> {
  const dropped = Number((await redis.hget(crawlKey(crawlId), 'dropped')) ?? '0');
  const nodes: Redis[] = cluster ? (redis as Cluster).nodes('master') : [redis as Redis];
  let gone = 0;
  for (let old = dropped + 1; old < round; old++) {
    const id = roundCrawlId(crawlId, old);
    const tags = (await redis.get(`t:{${id}}:shards`))?.split(' ') ?? [id];
    for (const tag of new Set([...tags, id])) {
      const prefix = `t:{${tag}}:`;
      // The first round's tags are the crawl's too: its own keys stay.
      const keep = (key: string): boolean => old === 1 && CRAWL_KEYS.test(key.slice(prefix.length));
      for (const node of nodes) gone += await unlinkMatching(node, prefix, keep);
    }
    await redis.hset(crawlKey(crawlId), 'dropped', old);
  }
  return gone;
}

/** Unlinks the keys of `node` that start with `prefix` (one hash tag), but those `keep` says. */
async function unlinkMatching(node: Redis, prefix: string, keep: (key: string) => boolean): Promise<number> {
  const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let gone = 0;
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    const doomed = keys.filter((key) => !keep(key));
    for (let i = 0; i < doomed.length; i += UNLINK_BATCH) gone += await node.unlink(...doomed.slice(i, i + UNLINK_BATCH));
  } while (cursor !== '0');
  return gone;
}

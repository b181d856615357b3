import type { Cluster } from 'ioredis';
import { fingerprintOf } from '../frontier/seen-set.js';
import type { FrontierConnection } from './connect-frontier.js';

/**
 * Where a crawl's keys live: S shards, each a hash tag of its own (`t:{TAG}:…`), so that each shard's
 * keys share one Redis Cluster slot and its script runs atomically there. A host belongs to one shard
 * (a stable hash of its name): its queue, its lease, its robots.txt and the seen-set of its URLs.
 */
export interface CrawlShards {
  /** `t:{TAG}:` of each shard. One shard is the layout of a standalone Redis: `t:{CRAWL}:`. */
  readonly prefixes: readonly string[];
  /** The shard of a host. */
  shardOf(host: string): number;
  /**
   * The shard a worker leases its hosts from first, so that what it tells of them goes to one shard.
   * A machine's workers `NAME#0`, `NAME#1`, … get the shards in turn from one a hash of NAME picks,
   * so that the workers of a machine spread evenly whatever their number.
   */
  homeOf(worker: string): number;
}

/**
 * Shards a crawl gets per master of a cluster at its first start. Each shard a sync touches is a
 * script call of its own, with a fixed cost: with 2 per master, a simulated crawl on 3 masters used
 * 62–66 µs of Redis CPU per page on each node, with 1 per master 50–54 (bench/redis-frontier-sim.ts).
 * The price: a crawl spreads over the masters it started on, not over nodes added later.
 */
export const SHARDS_PER_MASTER = 1;
/** Cluster slots, numbered 0 … 16383. */
const SLOTS = 16384;

/** The shards of `tags` (hash tags). */
export function crawlShards(tags: readonly string[]): CrawlShards {
  const prefixes = tags.map((tag) => `t:{${tag}}:`);
  const n = prefixes.length;
  if (n === 1) return { prefixes, shardOf: () => 0, homeOf: () => 0 };
  return {
    prefixes,
    shardOf: (host) => fingerprintOf(host)[0] % n,
    homeOf: (worker) => {
      const [, name = worker, slot = '0'] = /^(.*)#(\d+)$/.exec(worker) ?? [];
      return (fingerprintOf(name)[0] + Number(slot)) % n;
    },
  };
}

/**
 * The shards of the crawl `crawlId`, fixed when the crawl is created and kept in `t:{CRAWL}:shards`
 * (space-separated tags), so that every worker and every rerun uses the same. A standalone Redis
 * gets one shard, today's single-slot layout (a crawl created before shards existed has no record:
 * one shard too). A cluster gets {@link SHARDS_PER_MASTER} per master, their tags chosen so that each
 * master holds as many shards (slots move with resharding; the shards stay).
 *
 * @example
 * (await openCrawlShards(conn, 'beta')).prefixes //=> ['t:{beta:0}:', 't:{beta:1}:', 't:{beta:4}:'] on 3 masters
 */
export async function openCrawlShards({ redis, cluster, masters }: FrontierConnection, crawlId: string): Promise<CrawlShards> {
  const record = `t:{${crawlId}}:shards`;
  const kept = await redis.get(record);
  if (kept !== null) return crawlShards(kept.split(' '));
  if (!cluster) return crawlShards([crawlId]);
  const tags = await spreadTags(redis as Cluster, crawlId, masters * SHARDS_PER_MASTER);
  // Two workers starting at once: the first record wins, both use it.
  await redis.set(record, tags.join(' '), 'NX');
  return crawlShards((await redis.get(record))!.split(' '));
}

/** `count` tags `CRAWL:N`, as many on each master as on any other, found by asking the cluster their slots. */
async function spreadTags(redis: Cluster, crawlId: string, count: number): Promise<string[]> {
  const owner = new Uint16Array(SLOTS);
  // Each range: its first slot, its last, then its master (host, port, …) and replicas.
  const ranges = (await redis.cluster('SLOTS')).map(([from, to, master]) => ({ from, to, node: `${master![0]}:${master![1]}` }));
  const nodes = [...new Set(ranges.map((r) => r.node))].sort();
  for (const { from, to, node } of ranges) owner.fill(nodes.indexOf(node), from, to + 1);
  const per = Math.ceil(count / nodes.length);
  const held = new Array<number>(nodes.length).fill(0);
  const tags: string[] = [];
  for (let n = 0; tags.length < count; n++) {
    const tag = `${crawlId}:${n}`;
    const node = owner[(await redis.cluster('KEYSLOT', `{${tag}}`)) as number]!;
    if (held[node]! < per) {
      held[node]!++;
      tags.push(tag);
    }
  }
  return tags;
}

import type { FetchResponse } from '../model/fetch-response.js';
import type { FrontierRedis } from './connect-frontier.js';
import type { CrawlShards } from './crawl-shards.js';

type Fetch = (url: string) => Promise<FetchResponse>;

/**
 * robots.txt shared by the workers of a crawl: a response one worker fetched is kept in Redis for
 * robots-ttl (`t:{TAG}:robots:URL` in its host's shard, expiring), so that a host moving to another worker is not
 * asked for it again. Only answers the robots cache keeps are shared (2xx, 3xx, 4xx but 429); when
 * Redis does not answer, the worker fetches robots.txt itself.
 *
 * @example
 * new RobotsCache({ fetch: sharedRobotsFetch(redis, shards, ttlMs, fetchRobots), ... })
 */
export function sharedRobotsFetch(redis: FrontierRedis, shards: CrawlShards, ttlMs: number, fetch: Fetch): Fetch {
  const key = (url: string): string => `${shards.prefixes[shards.shardOf(new URL(url).host)]}robots:${url}`;
  return async (url) => {
    const stored = await redis.get(key(url)).catch(() => null);
    if (stored !== null) {
      const { status, headers, body } = JSON.parse(stored) as { status: number; headers: Record<string, string>; body: string };
      return { status, headers, body: Buffer.from(body, 'base64'), truncated: false, startedAt: Date.now(), durationMs: 0 };
    }
    const res = await fetch(url);
    if (ttlMs > 0 && res.status < 500 && res.status !== 429) {
      const value = JSON.stringify({ status: res.status, headers: res.headers, body: res.body.toString('base64') });
      await redis.set(key(url), value, 'PX', ttlMs).catch(() => undefined);
    }
    return res;
  };
}

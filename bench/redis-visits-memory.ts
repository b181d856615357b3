/**
 * Bytes per page the recrawl schedule of a shared crawl costs in Redis (`npx tsx
 * bench/redis-visits-memory.ts [--pages 200000] [--hosts 1000]`): a redis-server of its own gets that
 * many pages' visits (both validators, content MD5, times and adaptive schedule), written as workers
 * write them, and INFO memory is read before and after.
 */
import { crawlShards } from '../src/distributed/crawl-shards.js';
import { RecrawlVisits } from '../src/distributed/recrawl-visits.js';
import { startRedis } from '../test/support/redis-server.js';

const argv = process.argv.slice(2);
const value = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pages = Number(value('--pages') ?? 200_000);
const hosts = Number(value('--hosts') ?? 1000);
const BATCH = 5000;

const server = await startRedis();
const redis = server.client();
const used = async (): Promise<number> => Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))![1]);
const before = await used();
const visits = new RecrawlVisits(redis, crawlShards(['bench']), (url) => url);
const now = Date.now();
for (let i = 0; i < pages; i += BATCH) {
  for (let j = i; j < Math.min(pages, i + BATCH); j++) {
    const host = `h${j % hosts}.bench.test`;
    visits.ended(
      { url: `http://${host}/page/${j}`, host },
      { etag: '"5f3a-9c1b"', lastModified: 'Tue, 01 Dec 2026 09:00:00 GMT', contentMd5: '0cc175b9c0f1b6a831c399e269772661', fetchedAt: now, changedAt: now, fetchIntervalHours: 108, nextFetch: now + 108 * 3_600_000 },
    );
  }
  await visits.flush();
}
console.log(`${pages} pages' visits: ${((await used()) - before) / pages} bytes per page in Redis`);
redis.disconnect();
await server.close();

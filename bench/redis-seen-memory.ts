/**
 * Bytes per URL the shared frontier's seen-set costs in Redis (`npx tsx bench/redis-seen-memory.ts
 * [--urls 1000000] [--hosts 1000] [--levels 4]`): a redis-server of its own admits that many URLs through the real
 * sync script, in batches as workers send them, then INFO memory is read with the host queues and
 * without them (the seen-set alone), and for comparison after as many 8-byte members in one plain SET.
 * With `--levels K` (priority-levels, default 1) one URL in ten is queued on level 2, and the index of
 * the queued URLs (what lets one found again move up) is measured too.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { crawlShards } from '../src/distributed/crawl-shards.js';
import { SharedFrontier } from '../src/distributed/shared-frontier.js';
import { startRedis } from '../test/support/redis-server.js';

const argv = process.argv.slice(2);
const value = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const urls = Number(value('--urls') ?? 1_000_000);
const hosts = Number(value('--hosts') ?? 1000);
const levels = Number(value('--levels') ?? 1);
const BATCH = 2000;

const server = await startRedis();
const redis = new Redis(server.url);
const usedMemory = async (): Promise<number> => Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))![1]);
const frontier = new SharedFrontier({
  redis, shards: crawlShards(['mem']), worker: 'bench#0', order: 'bfs', levels, maxPerHost: 1, politeness: { delayMs: () => 0 },
  // No host is leased: the admitted requests stay queued, as a crawl's backlog does.
  requestsInFlight: 0, leaseMs: 60_000, maxPagesPerHost: 0, maxPages: 0, reapDelayMs: 0, durable: async () => undefined, canonical: (u) => u, onError: (err) => { throw err; },
});
const before = await usedMemory();
const t0 = performance.now();
for (let i = 0; i < urls; i += BATCH) {
  for (let j = i; j < Math.min(urls, i + BATCH); j++) {
    const host = `h${j % hosts}.bench.test`;
    const level = levels > 1 && j % 10 === 0 ? 2 : 1;
    frontier.push({ url: `http://${host}/page/${j}.html`, host, depth: 3, originalUrl: `http://${host}/page/${j}.html`, redirects: 0, attempt: 0, level });
  }
  await frontier.flush();
}
const seconds = (performance.now() - t0) / 1000;
const withQueues = (await usedMemory()) - before;
const drop = async (pattern: string): Promise<void> => {
  const keys = await redis.keys(pattern);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
};
await drop('t:{mem}:q*');
await redis.del('t:{mem}:levels');
const seenAndIndex = (await usedMemory()) - before;
await drop('t:{mem}:v:*');
const seenOnly = (await usedMemory()) - before;
const sample = await redis.object('ENCODING', 't:{mem}:s:1');
// For comparison: the same number of 8-byte fingerprints as members of one plain SET.
const beforePlain = await usedMemory();
for (let i = 0; i < urls; i += BATCH) {
  const p = redis.pipeline();
  for (let j = i; j < Math.min(urls, i + BATCH); j++) p.sadd('plain', randomBytes(8));
  await p.exec();
}
const plain = (await usedMemory()) - beforePlain;
const plainEncoding = await redis.object('ENCODING', 'plain');
console.log(`redis-server ${(/^redis_version:(\S+)/m.exec(await redis.info('server')) ?? [])[1]}: ${urls.toLocaleString('en-US')} URLs on ${hosts} hosts admitted in ${seconds.toFixed(1)} s (${Math.round(urls / seconds).toLocaleString('en-US')} URLs/s, batches of ${BATCH})`);
console.log(`  seen-set alone     ${(seenOnly / urls).toFixed(1)} bytes per URL (${(seenOnly / 1e6).toFixed(1)} MB; bucket encoding: ${sample})`);
console.log(`  with host queues   ${(withQueues / urls).toFixed(1)} bytes per URL (the queued requests themselves)`);
if (levels > 1) console.log(`  index of levels    ${((seenAndIndex - seenOnly) / urls).toFixed(1)} bytes per queued URL (${levels} levels, one URL in ten on level 2)`);
console.log(`  one plain SET      ${(plain / urls).toFixed(1)} bytes per URL of 8-byte strings (encoding: ${plainEncoding}), for comparison`);
await frontier.close();
redis.disconnect();
await server.close();

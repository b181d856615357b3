import type { FrontierRedis } from './connect-frontier.js';
import type { CrawlShards } from './crawl-shards.js';
import { readSyncReply, syncArgs, SYNC_KEYS, SYNC_SCRIPT, type SyncReply, type SyncRequest } from './sync-script.js';

/** One sync of a worker, for the whole crawl: {@link ShardedSync} splits it by shard. */
export interface CrawlSync extends Omit<SyncRequest, 'reclaim'> {
  /** The worker has nothing queued: it needs the crawl-wide count of open requests, read from every shard. */
  readonly fresh: boolean;
}

/**
 * How often a shard is looked at while a worker wants hosts, though it had none ready at the last
 * look: each look is a script call, so not at every sync (a worker that has nothing queued looks at
 * every shard at each sync anyway).
 */
const LOOK_MS = 500;

interface SyncCommand {
  tarantulaSyncBuffer(...args: (string | number | Buffer)[]): Promise<unknown>;
}

type Part = Pick<SyncRequest, 'admits' | 'ends' | 'renew' | 'back' | 'more' | 'raises'> & { want: number };

/**
 * A worker's sync over the shards of its crawl: everything it tells and asks goes to the shard of
 * its host, one script call per shard touched (in parallel), and the replies are read as one. Hosts
 * are asked for where they were ready at the last look, the rest in turn over the shards; a shard
 * is looked at again at least every {@link LOOK_MS} while the worker wants hosts, which is also when
 * its expired leases are reaped. Permits of max-page-number live in shard 0.
 *
 * A request's end and its page's links can fall in two shards, which no script sees together: the
 * links go first (a second round trip when an end is in another shard than a link), so that no
 * shard counts a page done before its links are admitted; and a worker concludes that the crawl has
 * nothing open only when two reads of every shard in a row say so. One shard (a standalone Redis)
 * is one call, exact at every sync.
 *
 * @example
 * const reply = await new ShardedSync(redis, shards).sync({ worker: 'host#0', want: 48, fresh: true, … });
 */
export class ShardedSync {
  private readonly open: number[];
  private readonly ready: number[];
  private readonly lookedAt: number[];
  /** The worker gave back what its name held before it (re)started, shard by shard. */
  private readonly reclaimed: boolean[];
  private reserved = 0;
  /** The last sync read every shard and found nothing open. */
  private quiet = false;
  /** Where the round of shards asked for hosts starts next. */
  private turn = 0;
  /** Script calls made (round trips to Redis). */
  calls = 0;

  constructor(
    private readonly redis: FrontierRedis,
    private readonly shards: CrawlShards,
  ) {
    redis.defineCommand('tarantulaSync', { numberOfKeys: SYNC_KEYS.length, lua: SYNC_SCRIPT });
    const n = shards.prefixes.length;
    this.open = new Array<number>(n).fill(1);
    this.ready = new Array<number>(n).fill(0);
    this.lookedAt = new Array<number>(n).fill(-Infinity);
    this.reclaimed = new Array<boolean>(n).fill(false);
  }

  async sync(r: CrawlSync): Promise<SyncReply> {
    const n = this.shards.prefixes.length;
    if (n === 1) {
      const reply = await this.call(0, r, r);
      this.quiet = true;
      return { ...reply, open: this.open[0]! };
    }
    const parts = this.split(r);
    const now = Date.now();
    const permits = r.maxPages > 0 && (r.wantPermits > 0 || r.returnedPermits > 0);
    const called = parts
      .map((_, k) => k)
      .filter((k) => {
        const p = parts[k]!;
        const touched = p.admits.length + p.ends.length + p.renew.length + p.back.length + p.more.length + p.raises.length + p.want > 0;
        return touched || r.fresh || (r.want > 0 && now - this.lookedAt[k]! >= LOOK_MS) || (k === 0 && permits);
      });
    // No shard may count a page done before its links are in: ends wait for the links of other shards.
    const endShards = called.filter((k) => parts[k]!.ends.length > 0);
    const linkShards = called.filter((k) => parts[k]!.admits.length > 0);
    const atOnce = endShards.length === 0 || (endShards.length === 1 && linkShards.every((k) => k === endShards[0]));
    const replies = atOnce
      ? await this.callAll(called, parts, r)
      : [...(await this.callAll(called.filter((k) => !endShards.includes(k)), parts, r)), ...(await this.callAll(endShards, parts, r))];
    let nextReadyInMs = -1;
    let granted = 0;
    for (const [k, reply] of replies) {
      if (reply.nextReadyInMs >= 0) nextReadyInMs = nextReadyInMs < 0 ? reply.nextReadyInMs : Math.min(nextReadyInMs, reply.nextReadyInMs);
      if (k === 0) granted = reply.granted;
    }
    let open = this.open.reduce((a, b) => a + b, 0);
    if (r.fresh) {
      // Two reads of every shard in a row found nothing open: a page ended in one shard between the two
      // reads had its links admitted before, and the second read sees them.
      const wasQuiet = this.quiet;
      this.quiet = open === 0;
      if (open === 0 && !wasQuiet) open = 1;
    } else this.quiet = false;
    return {
      open,
      nextReadyInMs,
      granted,
      reserved: this.reserved,
      ready: this.ready.reduce((a, b) => a + b, 0),
      lost: replies.flatMap(([, reply]) => reply.lost),
      taken: replies.flatMap(([, reply]) => reply.taken),
    };
  }

  /** What the sync tells and asks, by shard; hosts asked for where they were ready, the rest in turn. */
  private split(r: CrawlSync): Part[] {
    const n = this.shards.prefixes.length;
    const parts = Array.from({ length: n }, (): Part => ({ admits: [], ends: [], renew: [], back: [], more: [], raises: [], want: 0 }));
    const of = (host: string): Part => parts[this.shards.shardOf(host)]!;
    for (const a of r.admits) (of(a.host).admits as unknown[]).push(a);
    for (const e of r.ends) (of(e.host).ends as unknown[]).push(e);
    for (const host of r.renew) (of(host).renew as string[]).push(host);
    for (const b of r.back) (of(b.host).back as unknown[]).push(b);
    for (const host of r.more) (of(host).more as string[]).push(host);
    for (const u of r.raises) (of(u.host).raises as unknown[]).push(u);
    let left = r.want;
    for (const k of parts.map((_, i) => i).sort((a, b) => this.ready[b]! - this.ready[a]!)) {
      const take = Math.min(left, this.ready[k]!);
      parts[k]!.want += take;
      left -= take;
    }
    for (let i = 0; left > 0; i++, left--) parts[(this.turn + i) % n]!.want++;
    this.turn = (this.turn + 1) % n;
    return parts;
  }

  private async callAll(shards: readonly number[], parts: readonly Part[], r: CrawlSync): Promise<[number, SyncReply][]> {
    const settled = await Promise.allSettled(shards.map((k) => this.call(k, parts[k]!, r)));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((s, i) => [shards[i]!, (s as PromiseFulfilledResult<SyncReply>).value]);
  }

  private async call(k: number, part: Part | CrawlSync, r: CrawlSync): Promise<SyncReply> {
    const home = k === 0;
    const args = syncArgs(this.shards.prefixes[k]!, {
      ...r, ...part, reclaim: !this.reclaimed[k],
      maxPages: home ? r.maxPages : 0, wantPermits: home ? r.wantPermits : 0, returnedPermits: home ? r.returnedPermits : 0,
    });
    this.calls++;
    const reply = readSyncReply((await (this.redis as unknown as SyncCommand).tarantulaSyncBuffer(...args)) as (number | Buffer)[]);
    this.reclaimed[k] = true;
    this.open[k] = reply.open;
    this.ready[k] = reply.ready;
    this.lookedAt[k] = Date.now();
    if (home) this.reserved = reply.reserved;
    return reply;
  }
}

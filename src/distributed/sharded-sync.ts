import type { FrontierRedis } from './connect-frontier.js';
import type { CrawlShards } from './crawl-shards.js';
import { readSyncReply, syncArgs, SYNC_KEYS, SYNC_SCRIPT, type Admit, type SyncReply, type SyncRequest } from './sync-script.js';

/** One sync of a worker, for the whole crawl: {@link ShardedSync} splits it by shard. */
export interface CrawlSync extends Omit<SyncRequest, 'reclaim'> {
  /** The worker has nothing queued: it needs the crawl-wide count of open requests, read from every shard. */
  readonly fresh: boolean;
  /** Everything waiting goes now, to every shard (the worker stops, or is asked to flush). */
  readonly all: boolean;
  /** When the oldest of the links, ends and hosts given back this sync tells came. */
  readonly since: number;
  /** The worker runs short of requests: its shards are called for the hosts and requests it wants, else these wait for a call made anyway. */
  readonly hungry: boolean;
}

/** How a {@link ShardedSync} waits on a cluster: what it may hold back, and how long. */
export interface SyncBatching {
  /** The longest a link, an end or a host given back waits for its shard's next call. */
  readonly waitMs: number;
  /**
   * Ends held back at most (each a page fetched again if the worker is killed): past this, the shards
   * holding their links are called at once, and the ends go at the next sync.
   */
  readonly ends: number;
}

/**
 * How often a shard other than the worker's home is looked at while the worker wants hosts that its
 * home has not: each look is a script call, so not at every sync (a worker that has nothing queued
 * looks at every shard at each sync anyway).
 */
const LOOK_MS = 500;
/** Links that make a shard's call due at once, however young. */
const LINKS_AT_ONCE = 512;

interface SyncCommand {
  tarantulaSyncBuffer(...args: (string | number | Buffer)[]): Promise<unknown>;
}

type End = SyncRequest['ends'][number];
type Back = SyncRequest['back'][number];
type Raise = SyncRequest['raises'][number];
type Part = Pick<SyncRequest, 'admits' | 'ends' | 'renew' | 'back' | 'more' | 'raises'> & { want: number };

/** What waits for a shard's next call. */
interface Waiting {
  admits: Admit[];
  /** URLs found again whose level rose: moved up in the shard's queues if they wait there. */
  raises: Raise[];
  /** Each end with the links queued for every shard before it: they reach Redis first. */
  ends: { end: End; after: number[] }[];
  back: Back[];
  /** When the oldest of them came (Infinity: none). */
  since: number;
}

/**
 * A worker's sync over the shards of its crawl: everything it tells and asks goes to the shard of
 * its host, and the replies are read as one. One shard (a standalone Redis) is one call at every
 * sync, carrying everything, exact.
 *
 * On several shards each call has a fixed cost on its node, so a shard is called only when the
 * worker needs something of it now (hosts, more requests of a host, renewals, permits — shard 0
 * holds those of max-page-number) or what waits for it is old or large enough ({@link SyncBatching}):
 * links, ends and hosts given back wait. A worker leases from its home shard first, so that the ends
 * and hosts it gives back go mostly to one shard; the others, looked at every {@link LOOK_MS} while
 * its home has fewer ready hosts than it wants, mostly get links.
 *
 * A page's end and its links can fall in two shards, which no script sees together: an end goes
 * only once every link queued before it is in (so a killed worker's page stays leased and is fetched
 * again, its links found again: nothing admitted is lost), and a host goes back only with its ends;
 * a worker concludes that the crawl has nothing open only when two reads of every shard in a row
 * say so.
 *
 * @example
 * const reply = await new ShardedSync(redis, shards, 'host#0', { waitMs: 250, ends: 32 }).sync({ worker: 'host#0', want: 48, fresh: true, … });
 */
export class ShardedSync {
  private readonly open: number[];
  private readonly ready: number[];
  private readonly lookedAt: number[];
  /** The worker gave back what its name held before it (re)started, shard by shard. */
  private readonly reclaimed: boolean[];
  private readonly waiting: Waiting[];
  /** Links queued for each shard so far, and of those, admitted. */
  private readonly queued: number[];
  private readonly admitted: number[];
  private readonly home: number;
  private reserved = 0;
  /** The last sync read every shard and found nothing open. */
  private quiet = false;
  /** Where the round of other shards asked for hosts starts next. */
  private turn = 0;
  /** Script calls made (round trips to Redis). */
  calls = 0;

  constructor(
    private readonly redis: FrontierRedis,
    private readonly shards: CrawlShards,
    worker: string,
    private readonly batching: SyncBatching,
  ) {
    redis.defineCommand('tarantulaSync', { numberOfKeys: SYNC_KEYS.length, lua: SYNC_SCRIPT });
    const n = shards.prefixes.length;
    this.open = new Array<number>(n).fill(1);
    this.ready = new Array<number>(n).fill(0);
    this.lookedAt = new Array<number>(n).fill(-Infinity);
    this.reclaimed = new Array<boolean>(n).fill(false);
    this.waiting = Array.from({ length: n }, (): Waiting => ({ admits: [], raises: [], ends: [], back: [], since: Infinity }));
    this.queued = new Array<number>(n).fill(0);
    this.admitted = new Array<number>(n).fill(0);
    this.home = shards.homeOf(worker);
  }

  /** Several shards: what is told waits for its shard's next call. */
  get batches(): boolean {
    return this.shards.prefixes.length > 1;
  }

  /** Links told and not yet admitted: the crawl's open requests do not count them yet. */
  get linksWaiting(): number {
    return this.waiting.reduce((n, w) => n + w.admits.length, 0);
  }

  /** Ends told and not yet sent: Redis still counts their requests open. */
  get endsWaiting(): number {
    return this.waiting.reduce((n, w) => n + w.ends.length, 0);
  }

  /**
   * In how many ms a shard is due to be called for what waits (0: now; Infinity: nothing waits),
   * counting what the worker has to tell and has not told yet: `links` and `ends`, the oldest of
   * them (or a host to give back) since `since`.
   */
  dueIn(now: number, told: { readonly since: number; readonly links: number; readonly ends: number }): number {
    if (this.endsWaiting + told.ends >= this.batching.ends || told.links >= LINKS_AT_ONCE) return 0;
    let at = told.since + this.batching.waitMs;
    for (let k = 0; k < this.waiting.length; k++) {
      const w = this.waiting[k]!;
      if (this.outgoing(k).count === 0) continue;
      if (w.admits.length >= LINKS_AT_ONCE) return 0;
      at = Math.min(at, w.since + this.batching.waitMs);
    }
    return Math.max(0, at - now);
  }

  /** Some end of the home shard waits for links to another shard. */
  private blocksHome(): boolean {
    const k = this.home;
    return this.waiting[k]!.ends.some(({ after }) => after.some((q, j) => j !== k && this.admitted[j]! < q));
  }

  /** Whether shard `k` is to be called for what waits for it. */
  private due(k: number, now: number, endsOver: boolean): boolean {
    const w = this.waiting[k]!;
    const out = this.outgoing(k);
    if (out.count === 0) return false;
    return now - w.since >= this.batching.waitMs || w.admits.length >= LINKS_AT_ONCE || (endsOver && out.admits.length + out.ends.length > 0);
  }

  /**
   * What of shard `k`'s waiting room may go now: every link and raise; the ends whose links are all admitted
   * (those in shard `k` go in the same call, first); the hosts given back whose ends all go.
   */
  private outgoing(k: number): { admits: Admit[]; raises: Raise[]; ends: End[]; back: Back[]; count: number } {
    const w = this.waiting[k]!;
    const ends: End[] = [];
    const hostsEnding = new Set<string>();
    for (const { end, after } of w.ends) {
      if (after.every((q, j) => j === k || this.admitted[j]! >= q)) ends.push(end);
      else hostsEnding.add(end.host);
    }
    // A host goes back only once the ends of its requests are told: else they would be queued again.
    const back = hostsEnding.size === 0 ? w.back : w.back.filter((b) => !hostsEnding.has(b.host));
    return { admits: w.admits, raises: w.raises, ends, back, count: w.admits.length + w.raises.length + ends.length + back.length };
  }

  async sync(r: CrawlSync): Promise<SyncReply> {
    const n = this.shards.prefixes.length;
    const now = Date.now();
    this.queue(r);
    if (n === 1) {
      const reply = await this.round([0], this.split(r), r, true);
      this.quiet = true;
      return { ...reply[0]![1], open: this.open[0]! };
    }
    const parts = this.split(r);
    const permits = r.maxPages > 0 && (r.wantPermits > 0 || r.returnedPermits > 0);
    const homeShort = r.hungry && r.want > 0 && this.ready[this.home]! < r.want;
    const endsOver = this.endsWaiting >= this.batching.ends;
    const shards = parts.map((_, k) => k).filter((k) => {
      const p = parts[k]!;
      const needed = p.renew.length > 0 || (r.hungry && p.more.length + p.want > 0) || (k === 0 && permits);
      const look = homeShort && k !== this.home && now - this.lookedAt[k]! >= LOOK_MS;
      return needed || look || r.fresh || r.all || this.due(k, now, endsOver);
    });
    // Most ends are home's, and wait for links to the other shards: home is called after them.
    const last = shards.includes(this.home) && this.blocksHome() ? [this.home] : [];
    const replies = await this.round(shards.filter((k) => !last.includes(k)), parts, r, true);
    if (last.length > 0) replies.push(...(await this.round(last, parts, r, true)));
    // Everything goes: the ends that waited for links sent just now go next.
    for (let left = r.all ? n : 0; left > 0 && this.waiting.some((w) => w.ends.length + w.back.length > 0); left--) {
      const rest = this.waiting.map((w, k) => (w.ends.length + w.back.length > 0 ? k : -1)).filter((k) => k >= 0);
      replies.push(...(await this.round(rest, this.split({ renew: [], more: [], want: 0 }), r, false)));
    }
    let nextReadyInMs = -1;
    let granted = 0;
    for (const [k, reply] of replies) {
      if (reply.nextReadyInMs >= 0) nextReadyInMs = nextReadyInMs < 0 ? reply.nextReadyInMs : Math.min(nextReadyInMs, reply.nextReadyInMs);
      if (k === 0) granted += reply.granted;
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

  /** Puts what the sync tells in its shards' waiting room: an end after every link told before it. */
  private queue(r: CrawlSync): void {
    const of = (host: string): Waiting => {
      const w = this.waiting[this.shards.shardOf(host)]!;
      w.since = Math.min(w.since, r.since);
      return w;
    };
    for (const a of r.admits) {
      of(a.host).admits.push(a);
      this.queued[this.shards.shardOf(a.host)]!++;
    }
    for (const u of r.raises) of(u.host).raises.push(u);
    for (const end of r.ends) of(end.host).ends.push({ end, after: this.queued.slice() });
    for (const b of r.back) of(b.host).back.push(b);
  }

  /** What the sync asks, by shard; hosts asked for at home first, then where they were ready, the rest in turn. */
  private split(r: Pick<CrawlSync, 'renew' | 'more' | 'want'>): Part[] {
    const n = this.shards.prefixes.length;
    const parts = Array.from({ length: n }, (): Part => ({ admits: [], ends: [], renew: [], back: [], more: [], raises: [], want: 0 }));
    const of = (host: string): Part => parts[this.shards.shardOf(host)]!;
    for (const host of r.renew) (of(host).renew as string[]).push(host);
    for (const host of r.more) (of(host).more as string[]).push(host);
    let left = r.want;
    const others = parts.map((_, i) => i).filter((k) => k !== this.home);
    for (const k of [this.home, ...others.sort((a, b) => this.ready[b]! - this.ready[a]!)]) {
      const take = Math.min(left, this.ready[k]!);
      parts[k]!.want += take;
      left -= take;
    }
    // What no shard was known to have: asked of home and, in turn, of the shards looked at.
    const now = Date.now();
    const looked = [this.home, ...others.filter((k) => now - this.lookedAt[k]! >= LOOK_MS)];
    for (let i = 0; left > 0; i++, left--) parts[looked[(this.turn + i) % looked.length]!]!.want++;
    this.turn++;
    return parts;
  }

  /** Calls `shards` at once, each with everything of its own that may go; what goes is off the waiting room once in. */
  private async round(shards: readonly number[], parts: readonly Part[], r: CrawlSync, first: boolean): Promise<[number, SyncReply][]> {
    const sent = shards.map((k) => this.outgoing(k));
    const settled = await Promise.allSettled(shards.map((k, i) => this.call(k, { ...parts[k]!, admits: sent[i]!.admits, raises: sent[i]!.raises, ends: sent[i]!.ends, back: sent[i]!.back }, r, first)));
    // What reached its shard is off the waiting room; what did not stays (the worker stops on an error).
    shards.forEach((k, i) => {
      if (settled[i]!.status === 'rejected') return;
      const w = this.waiting[k]!;
      const s = sent[i]!;
      this.admitted[k]! += s.admits.length;
      w.admits = w.admits.slice(s.admits.length);
      w.raises = w.raises.slice(s.raises.length);
      w.ends = w.ends.filter(({ end }) => !s.ends.includes(end));
      w.back = w.back.filter((b) => !s.back.includes(b));
      if (w.admits.length + w.raises.length + w.ends.length + w.back.length === 0) w.since = Infinity;
    });
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((s, i) => [shards[i]!, (s as PromiseFulfilledResult<SyncReply>).value]);
  }

  private async call(k: number, part: Part, r: CrawlSync, first: boolean): Promise<SyncReply> {
    const permits = k === 0 && first;
    const args = syncArgs(this.shards.prefixes[k]!, {
      ...r, ...part, reclaim: !this.reclaimed[k],
      maxPages: permits ? r.maxPages : 0, wantPermits: permits ? r.wantPermits : 0, returnedPermits: permits ? r.returnedPermits : 0,
    });
    this.calls++;
    const reply = readSyncReply((await (this.redis as unknown as SyncCommand).tarantulaSyncBuffer(...args)) as (number | Buffer)[]);
    this.reclaimed[k] = true;
    this.open[k] = reply.open;
    this.ready[k] = reply.ready;
    this.lookedAt[k] = Date.now();
    if (permits) this.reserved = reply.reserved;
    return reply;
  }
}

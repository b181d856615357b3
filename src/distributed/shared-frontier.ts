import type { CrawlRequest } from '../model/crawl-request.js';
import type { RequestEnd } from '../model/request-end.js';
import { visitOf } from '../model/page-visit.js';
import { hostFrontier, type DelayPolicy, type Frontier } from '../frontier/host-frontier.js';
import { FrontQueues } from '../frontier/front-queues.js';
import { crawlRequestCodec } from '../frontier/request-codec.js';
import { fingerprintOf } from '../frontier/seen-set.js';
import type { FrontierRedis } from './connect-frontier.js';
import type { CrawlShards } from './crawl-shards.js';
import type { RecrawlVisits } from './recrawl-visits.js';
import { ShardedSync } from './sharded-sync.js';
import { indexMember, queuedRequest, type SeenKey } from './level-queues-script.js';
import type { Admit, SyncReply } from './sync-script.js';

export interface SharedFrontierOptions {
  readonly redis: FrontierRedis;
  /** Where the crawl's keys are (crawl-shards.ts). */
  readonly shards: CrawlShards;
  /** Unique among the crawl's workers, and the same when a worker restarts (it then takes its old hosts back at once). */
  readonly worker: string;
  readonly order: 'bfs' | 'dfs';
  readonly maxPerHost: number;
  /** priority-levels: the front queues of each host, in Redis and in this worker (SPEC §10). Default 1. */
  readonly levels?: number;
  readonly politeness: DelayPolicy;
  /** Requests in flight on this worker (`threads`): how many hosts it asks for, and permits it wants. */
  readonly requestsInFlight: number;
  readonly leaseMs: number;
  readonly maxPagesPerHost: number;
  /** max-page-number, 0 = none: requests start only with a permit from Redis. */
  readonly maxPages: number;
  /**
   * On several shards, the longest a link, an end or a host given back waits for its shard's next
   * call. Default: 250 ms, or a tenth of a lease period if shorter.
   */
  readonly shardWaitMs?: number;
  /** How long a host taken back from a worker that stopped renewing rests first (min-delay): its last request's end is unknown. */
  readonly reapDelayMs: number;
  /** The form of a URL the seen-set compares (without session ids). */
  readonly canonical: (url: string) => string;
  /**
   * Resolves once the records of the ends told so far are written (the worker's journal): an end
   * reaches Redis only after its record, so a killed worker never loses a page Redis counts as done.
   */
  readonly durable: () => Promise<void>;
  /**
   * The crawl's recrawl schedule in Redis: the visit of each page ended here is saved before its end
   * reaches Redis, and with `loadVisits` (a recrawl round) the visits of the requests taken are read
   * before they may start.
   */
  readonly visits?: RecrawlVisits;
  readonly loadVisits?: boolean;
  /** Redis failed: the worker must stop; what it holds comes back when its leases run out. */
  readonly onError: (err: Error) => void;
}

/** Requests taken from a host's shared queue at a time. */
const BATCH = 64;
/** Hosts held per request in flight (Mercator's rule of three back queues per thread). */
const HOSTS_PER_THREAD = 3;
/** The longest wait between two syncs while work may appear elsewhere. */
const POLL_MS = 100;
/**
 * How long a worker works a host before it goes back to the shared queue at its next pause (or one
 * lease period, if shorter): no host is held for ever, and hosts beyond the 3 × threads a worker holds
 * get their turn.
 */
const SLICE_MS = 10_000;
/** How often the crawl loop looks for requests a sync brought while one is due or under way. */
const WAKE_MS = 5;
/** What is to send waits this long for more to join it in the same round trip. */
const GATHER_MS = 2;
/**
 * On several shards, the longest a link, an end or a host given back waits for its shard's next call
 * by default (or a tenth of a lease period, if shorter, so that a host given back is still leased
 * when it goes): a call to a shard costs its node about the same whatever it carries, and a worker's
 * links go to every shard.
 */
const SHARD_WAIT_MS = 250;
/** On several shards, ends held back at most per request in flight: a killed worker's pages fetched again. */
const ENDS_PER_THREAD = 2;

/** What this worker knows of a host it holds. */
interface Held {
  /** Requests in the local queue. */
  unstarted: number;
  /** Pulled and not yet ended. */
  active: number;
  /** Requests left in the shared queue at the last look; 1 when links were added since. */
  remaining: number;
  asking: boolean;
  /** Another worker holds it now: its local requests are dropped as they come up. */
  lost: boolean;
  /** When the host may be contacted again after its last request. */
  nextAllowed: number;
  /** When this worker leased it: after its time slice it goes back to the shared queue at its next pause. */
  readonly since: number;
}

/**
 * A {@link Frontier} shared by every worker of a crawl through Redis (SPEC §8), keeping the crawl
 * loop's pull synchronous: the worker leases whole hosts, moves a batch of each one's requests into
 * a local host frontier and works them under the local politeness rules, then gives the host back
 * with its next-allowed time. Links are admitted (seen-set, host queue, ready set) and ends counted
 * in the same script call, one call per sync and shard touched whatever it carries (sharded-sync.ts),
 * and at most one sync in flight.
 * A lease not renewed in time is reaped by any worker's next sync, its unfinished requests back at
 * the head of its queue. `size` counts the shared crawl's pending requests, so the crawl completes
 * when no worker has anything queued, leased or in flight. How each request ended comes with the
 * crawl loop's release of it, as with any frontier: the crawl needs nothing else to run shared.
 * Priority levels act in Redis and here alike: each host's shared queue keeps one list per level and
 * hands a batch out level by level as the local front queues take them (level-queues-script.ts), and
 * a URL found again whose level rose moves up where it waits, here or in Redis.
 *
 * @example
 * const shared = new SharedFrontier({ redis, shards: await openCrawlShards(connection, 'news'), worker: 'host#0', ... });
 * crawl({ ...defaultSpec(ctx), frontier: shared })
 */
export class SharedFrontier implements Frontier<CrawlRequest> {
  private readonly local: Frontier<CrawlRequest>;
  private readonly held = new Map<string, Held>();
  /** Each request taken from Redis, as Redis holds it (its end names it by these bytes). */
  private readonly blobs = new Map<string, Buffer>();
  /** The level of each request taken from Redis and not started yet: a URL found again may move up. */
  private readonly waiting = new Map<string, number>();
  /** URLs moved up here, with their new level and the copies of a lower level still queued, to skip. */
  private readonly raised = new Map<string, { level: number; stale: number }>();
  private outbox: Admit[] = [];
  /** URLs found again whose level rose and that do not wait here: Redis moves them up if they wait there. */
  private raises: { host: string; blob: Buffer }[] = [];
  private ends: { host: string; blob: Buffer; kind: 'd' | 'x' }[] = [];
  /** When the oldest link, end or host to give back not yet handed to the sync came (Infinity: none). */
  private toldAt = Infinity;
  /** The shared crawl's pending requests that are not this worker's, at the last sync (unknown = 1). */
  private others = 1;
  private active = 0;
  /** Permits to start a request (max-page-number) held here, owed back to Redis, and Redis's count reserved. */
  private permits = 0;
  private permitsOwed = 0;
  private reserved = 0;
  private syncing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private closed = false;
  private failed = false;
  private nextReadyInMs = -1;
  /** No request starts after this: the leases renewed by the last sync may be running out. */
  private startBefore = 0;
  private renewedAt = -Infinity;
  private readonly redisSync: ShardedSync;
  /** priority-levels: with more than one, queued requests carry their URL's fingerprint, for a URL found again to move up. */
  private readonly levels: number;
  /** Syncs and hosts leased so far (logged when the worker ends; the benchmarks report them). */
  syncs = 0;
  leases = 0;

  /** Script calls to Redis so far: one per sync and shard it touched. */
  get roundTrips(): number {
    return this.redisSync.calls;
  }

  constructor(private readonly opts: SharedFrontierOptions) {
    this.redisSync = new ShardedSync(opts.redis, opts.shards, opts.worker, {
      waitMs: opts.shardWaitMs ?? Math.min(SHARD_WAIT_MS, opts.leaseMs / 10),
      ends: ENDS_PER_THREAD * opts.requestsInFlight,
    });
    this.levels = opts.levels ?? 1;
    const politeness: DelayPolicy = {
      delayMs: (host) => {
        const ms = opts.politeness.delayMs(host);
        const h = this.held.get(host);
        if (h) h.nextAllowed = Math.max(h.nextAllowed, Date.now() + ms);
        return ms;
      },
    };
    this.local = hostFrontier<CrawlRequest>({
      order: opts.order, maxPerHost: opts.maxPerHost, politeness, levels: this.levels, levelOf: (req) => req.level ?? 1,
      skip: (req) => {
        const r = this.raised.get(req.url);
        if (r === undefined || (req.level ?? 1) >= r.level) return false;
        if (--r.stale === 0) this.raised.delete(req.url);
        return true;
      },
    });
    this.plan();
  }

  /** max-page-number is reached for this worker: no permit left here, none left to grant. */
  get exhausted(): boolean {
    return this.opts.maxPages > 0 && this.permits === 0 && this.reserved >= this.opts.maxPages;
  }

  get size(): number {
    const busy = this.syncing !== undefined || this.ends.length > 0 || this.redisSync.endsWaiting > 0 ? 1 : 0;
    return this.local.size + this.outbox.length + this.redisSync.linksWaiting + this.others + busy;
  }

  get inFlight(): number {
    return this.local.inFlight;
  }

  get hosts(): number {
    return this.held.size;
  }

  push(req: CrawlRequest): boolean {
    // A URL found again whose level rose (the seen-set let it through): Redis has it already.
    if (req.again) {
      this.raise(req);
      return true;
    }
    const key = this.seenKey(req.url);
    const admit = { bucket: key.bucket, member: String(key.member), host: req.host };
    if (this.levels === 1) this.outbox.push({ ...admit, blob: queuedRequest(req) });
    else this.outbox.push({ ...admit, blob: queuedRequest(req, key), index: indexMember(key, FrontQueues.levelIndex(this.levels, req.level ?? 1) + 1) });
    this.toldAt = Math.min(this.toldAt, Date.now());
    const h = this.held.get(req.host);
    if (h) h.remaining = Math.max(h.remaining, 1);
    this.plan();
    return true;
  }

  pushAll(reqs: readonly CrawlRequest[]): number {
    // The script pushes a depth-first host's links onto the head of its queue: last first, so the first is on top.
    if (this.opts.order === 'dfs') for (let i = reqs.length - 1; i >= 0; i--) this.push(reqs[i]!);
    else for (const req of reqs) this.push(req);
    return reqs.length;
  }

  pull(now: number): CrawlRequest | undefined {
    if (now >= this.startBefore || this.waitsForPermit()) return undefined;
    for (;;) {
      const req = this.local.pull(now);
      if (req === undefined) return undefined;
      const h = this.held.get(req.host)!;
      h.unstarted--;
      this.waiting.delete(req.url);
      if (!h.lost) {
        h.active++;
        this.active++;
        if (this.opts.maxPages > 0) this.permits--;
        return req;
      }
      // Its host was taken back (this worker missed its renewals): the request is another worker's now.
      this.blobs.delete(req.url);
      this.local.release(req, now);
      this.forget(req.host, h);
    }
  }

  /**
   * Frees the host locally; with the request's end, also tells Redis of it at the next sync. A request
   * that ends `again` (a retry, one put back after robots.txt, one a stop cut short) is no end: it
   * stays taken, back in the local queue, and goes back to the shared queue with its host.
   */
  release(req: CrawlRequest, now: number, end?: RequestEnd): boolean {
    const first = this.local.release(req, now, end);
    if (end === undefined) return first;
    this.active--;
    const h = this.held.get(req.host);
    if (h) {
      h.active--;
      if (end.kind === 'again') {
        h.unstarted++;
        this.waiting.set(end.next.url, end.next.level ?? 1);
      }
      this.forget(req.host, h);
    }
    if (end.kind !== 'again') {
      if (this.opts.visits) this.opts.visits.ended(req, end.kind !== 'document' ? undefined : end.visit ?? (end.record && visitOf(end.record)));
      const blob = this.blobs.get(req.url);
      this.blobs.delete(req.url);
      if (blob) {
        this.ends.push({ host: req.host, blob, kind: end.kind === 'document' ? 'd' : 'x' });
        this.toldAt = Math.min(this.toldAt, now);
      }
    }
    // Only a document keeps its permit; a request to start again takes a new one.
    if (end.kind !== 'document' && this.opts.maxPages > 0) this.permitsOwed++;
    this.plan();
    return first;
  }

  nextReadyAt(): number | undefined {
    const now = Date.now();
    // Waiting for a renewal or a permit: nothing may start before it, whatever the local hosts say.
    const at = now >= this.startBefore || this.waitsForPermit() ? now + WAKE_MS : this.local.nextReadyAt();
    if (this.closed || this.failed || (this.syncing === undefined && this.timer === undefined)) return at;
    // A sync is due or under way and may bring hosts: the crawl loop looks again soon.
    return Math.min(at ?? Infinity, now + WAKE_MS);
  }

  *pending(): IterableIterator<CrawlRequest> {
    yield* this.local.pending();
  }

  /**
   * The crawl is over for this worker: sends what is left (links, ends) and gives every host back
   * with the requests it did not finish, free again after its politeness delay.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush(true);
  }

  /** Sends everything waiting at once instead of at the next planned sync; `last` also gives every host back. */
  async flush(last = false): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    await this.syncing;
    if (this.failed) return;
    const run = this.sync(last, true);
    const done = (): void => {
      this.syncing = undefined;
    };
    this.syncing = run.then(done, done);
    await run;
    this.plan();
  }

  /**
   * Moves a URL found again up to its new level if it waits here (its copy of the lower level is
   * skipped when it comes up; its end still names the bytes Redis holds), else asks Redis to, where
   * it may wait. One held by another worker keeps the level it was taken with.
   */
  private raise(req: CrawlRequest): void {
    const level = req.level ?? 1;
    const at = this.waiting.get(req.url);
    if (at === undefined) {
      this.raises.push({ host: req.host, blob: queuedRequest({ ...req, again: false }, this.seenKey(req.url)) });
      this.toldAt = Math.min(this.toldAt, Date.now());
      this.plan();
      return;
    }
    if (level <= at) return;
    this.waiting.set(req.url, level);
    this.raised.set(req.url, { level, stale: (this.raised.get(req.url)?.stale ?? 0) + 1 });
    this.local.push(req);
  }

  /** The URL's seen-set fingerprint: 16 bits name its bucket, 48 stay in it (an integer exact in Lua's doubles and in Redis's intsets). */
  private seenKey(url: string): SeenKey {
    const [hi, lo] = fingerprintOf(this.opts.canonical(url));
    return { bucket: hi >>> 16, member: (hi & 0xffff) * 2 ** 32 + lo };
  }

  private waitsForPermit(): boolean {
    return this.opts.maxPages > 0 && this.permits === 0;
  }

  /** A host lost to another worker is forgotten once nothing of it is left here. */
  private forget(host: string, h: Held): void {
    if (h.lost && h.unstarted === 0 && h.active === 0) this.held.delete(host);
  }

  /** Schedules the next sync: soon when there is something to say or ask, else to renew and to look for work. */
  private plan(): void {
    if (this.closed || this.failed || this.syncing !== undefined) return;
    const now = Date.now();
    const lazy = this.redisSync.batches;
    const permitNeeded = this.waitsForPermit() && this.local.size > 0 && this.reserved < this.opts.maxPages;
    const backs = this.giveBacks().length;
    if (backs > 0) this.toldAt = Math.min(this.toldAt, now);
    // On several shards what is told waits for its shard's next call (sharded-sync.ts), and hosts and
    // requests are asked for only when this worker runs short; on one shard everything goes at once.
    const told = !lazy && (this.outbox.length > 0 || this.raises.length > 0 || this.ends.length > 0 || backs > 0);
    const asks = !lazy || this.hungry();
    const urgent = told || this.permitsOwed > 0 || permitNeeded || (asks && this.wantsMore().length > 0);
    const idle = asks && this.others > 0 && this.held.size - backs < this.opts.requestsInFlight * HOSTS_PER_THREAD;
    // Also often enough to renew the leases, and to see a host's time slice end.
    let wait = urgent ? GATHER_MS : idle ? (this.nextReadyInMs >= 0 ? Math.min(this.nextReadyInMs, POLL_MS) : POLL_MS) : Math.min(POLL_MS * 10, this.opts.leaseMs / 10);
    if (lazy) wait = Math.min(wait, Math.max(GATHER_MS, this.redisSync.dueIn(now, { since: this.toldAt, links: this.outbox.length, ends: this.ends.length })));
    const at = now + wait;
    if (this.timer !== undefined && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.syncing = this.sync(false, false).then(
        () => {
          this.syncing = undefined;
          this.plan();
        },
        (err: unknown) => {
          this.syncing = undefined;
          this.failed = true;
          this.opts.onError(err as Error);
        },
      );
    }, wait);
  }

  /** Hosts with nothing left here, whose shared queue is empty too or whose time slice is over (no host is held for ever). */
  private giveBacks(): string[] {
    const back: string[] = [];
    const sliceStart = Date.now() - Math.min(SLICE_MS, this.opts.leaseMs);
    for (const [host, h] of this.held)
      if (!h.lost && !h.asking && h.unstarted === 0 && h.active === 0 && (h.remaining === 0 || h.since <= sliceStart)) back.push(host);
    return back;
  }

  /** Fewer requests are queued here than two per request in flight: hosts and requests are asked for now. */
  private hungry(): boolean {
    return this.local.size < 2 * this.opts.requestsInFlight;
  }

  private wantsMore(): string[] {
    const more: string[] = [];
    const sliceStart = Date.now() - Math.min(SLICE_MS, this.opts.leaseMs);
    for (const [host, h] of this.held) if (!h.lost && !h.asking && h.remaining > 0 && h.unstarted < BATCH / 4 && h.since > sliceStart) more.push(host);
    return more;
  }

  /**
   * One round trip (on several shards, one per shard called): everything to tell, and the hosts and
   * requests to ask for. `last` gives every host back; `all` sends everything waiting for its shard.
   */
  private async sync(last: boolean, all: boolean): Promise<void> {
    const admits = this.outbox;
    const raises = this.raises;
    const ends = this.ends;
    const since = this.toldAt;
    this.outbox = [];
    this.raises = [];
    this.ends = [];
    this.toldAt = Infinity;
    // Permits are held only for requests waiting here: a worker with nothing to start gives its back, so
    // that a worker with work is never starved by one without.
    const idle = last || this.local.size === 0;
    const owed = this.permitsOwed + (idle ? this.permits : 0);
    const wantPermits = idle || this.opts.maxPages === 0 ? 0 : Math.max(0, Math.min(this.opts.requestsInFlight, this.local.size) - this.permits);
    this.permitsOwed = 0;
    const sentPermits = idle ? this.permits : 0;
    if (idle) this.permits = 0;
    const back = last ? [...this.held.keys()] : this.giveBacks();
    const now = Date.now();
    const renew: string[] = [];
    // Renewing costs Redis a command per host: ten times a lease period is often enough.
    const renewing = now - this.renewedAt >= this.opts.leaseMs / 10;
    if (renewing) for (const [host, h] of this.held) if (!h.lost && !back.includes(host)) renew.push(host);
    const more = last ? [] : this.wantsMore();
    for (const host of more) this.held.get(host)!.asking = true;
    const o = this.opts;
    const request = {
      worker: o.worker, ttlMs: o.leaseMs, want: last ? 0 : Math.max(0, o.requestsInFlight * HOSTS_PER_THREAD - this.held.size + (this.redisSync.batches ? back.length : 0)), batch: BATCH, hungry: this.hungry(),
      order: o.order, maxPagesPerHost: o.maxPagesPerHost, maxPages: o.maxPages, wantPermits, returnedPermits: owed,
      reapDelayMs: o.reapDelayMs, levels: this.levels, admits, raises, ends, renew, more, fresh: this.local.size === 0, all, since: back.length > 0 ? Math.min(since, now) : since,
      back: back.map((host) => ({ host, delayMs: Math.max(0, this.held.get(host)!.nextAllowed - now) })),
    };
    for (const host of back) this.held.delete(host);
    this.syncs++;
    let reply: SyncReply;
    let handed = false;
    try {
      // Everything is decided above, in one go: what ends meanwhile waits for the next sync, and no
      // host goes back with an end not told. The ends told wait for their records to be written.
      if (ends.length > 0) await o.durable();
      // Then the visits of the pages ended, before Redis counts them done.
      await o.visits?.flush();
      handed = true;
      reply = await this.redisSync.sync(request);
    } catch (err) {
      // Unsent, so still owed: a final sync (or the leases running out) carries them. Once handed to
      // the sync, the links, raises and ends wait there for their shards.
      if (!handed) {
        this.outbox = admits.concat(this.outbox);
        this.raises = raises.concat(this.raises);
        this.ends = ends.concat(this.ends);
        this.toldAt = Math.min(this.toldAt, since);
      }
      this.permitsOwed += owed - (idle ? sentPermits : 0);
      this.permits += idle ? sentPermits : 0;
      throw err;
    }
    // A host asked for more of and not given any (its shard was not called) may be asked for again.
    for (const host of more) {
      const h = this.held.get(host);
      if (h) h.asking = false;
    }
    // The requests taken wait for their last visits (a conditional request needs them); should Redis
    // fail now, they come back to the shared queues when their leases run out.
    const taken = reply.taken.map(({ host, blobs }) => blobs.map((blob) => crawlRequestCodec.decode(blob, 0, blob.length, host)));
    if (o.loadVisits && taken.length > 0) await o.visits?.loadTaken(taken.flat());
    // Every held host was renewed (or newly leased) no earlier than `now`: a request started later than
    // two thirds into that lease still ends, as a rule, before another worker may take the host.
    if (renewing) {
      this.renewedAt = now;
      this.startBefore = now + (this.opts.leaseMs * 2) / 3;
    }
    this.read(reply, taken);
  }

  /** Takes in a sync's reply; `taken` is its requests taken, decoded, by host as `reply.taken`. */
  private read(reply: SyncReply, taken: readonly CrawlRequest[][]): void {
    this.nextReadyInMs = reply.nextReadyInMs;
    this.permits += reply.granted;
    this.reserved = reply.reserved;
    for (const host of reply.lost) {
      const h = this.held.get(host);
      if (h) {
        h.lost = true;
        this.forget(host, h);
      }
    }
    for (const [i, { host, left, blobs }] of reply.taken.entries()) {
      let h = this.held.get(host);
      if (h === undefined) {
        h = { unstarted: 0, active: 0, remaining: 0, asking: false, lost: false, nextAllowed: 0, since: Date.now() };
        this.held.set(host, h);
        this.leases++;
      }
      h.remaining = left;
      h.asking = false;
      const reqs = taken[i]!;
      for (const [j, req] of reqs.entries()) {
        this.blobs.set(req.url, blobs[j]!);
        this.waiting.set(req.url, req.level ?? 1);
      }
      h.unstarted += reqs.length;
      // The local frontier is given a depth-first host's requests in reverse, the first on top, as it takes a page's links.
      this.local.pushAll(reqs);
    }
    // What Redis counts as open and is not held here: queued, or leased by other workers.
    this.others = Math.max(0, reply.open - this.local.size - this.active - this.ends.length - this.redisSync.endsWaiting);
  }
}

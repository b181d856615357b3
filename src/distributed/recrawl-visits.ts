import type { PageVisit } from '../model/page-visit.js';
import { fingerprintOf } from '../frontier/seen-set.js';
import type { FrontierRedis } from './connect-frontier.js';
import type { CrawlShards } from './crawl-shards.js';

/** A page and its host, as the frontier names a request. */
interface Page {
  readonly url: string;
  readonly host: string;
}

/** Fields read or written in one command. */
const CHUNK = 512;

/**
 * The recrawl schedule of a shared crawl, kept with the crawl in Redis so that any worker on any
 * machine revalidates any page and its interval adapts as in one process: the last visit of each
 * page ({@link PageVisit}: validators, content MD5, last visit and change, interval, due time),
 * packed in one field of a hash per shard, `t:{TAG}:visits`, in the shard of the page's host among
 * the crawl's first-round shards (which outlive the rounds, as robots.txt does). The field is the
 * page's 8-byte fingerprint (the seen-set's, of the URL without session ids): about 170 bytes a page
 * in Redis with both validators and the adaptive schedule (bench/redis-visits-memory.ts).
 *
 * A worker saves the visits of the pages it ended before Redis hears of their ends (a worker killed
 * then loses no visit of a page Redis counts as done), and loads those of the requests it takes
 * before it may start them; it holds them until their end.
 *
 * @example
 * const visits = new RecrawlVisits(redis, crawlShards, withoutSessionIds);
 * await visits.loadTaken(takenRequests); visits.visitOf(url) //=> { etag: '"v1"', contentMd5: '…', fetchIntervalHours: 108, … }
 */
export class RecrawlVisits {
  private readonly held = new Map<string, PageVisit>();
  private unsaved: (Page & { readonly visit: PageVisit })[] = [];

  constructor(
    private readonly redis: FrontierRedis,
    private readonly shards: CrawlShards,
    private readonly canonical: (url: string) => string,
  ) {}

  /** The last visit of a page loaded and not yet ended (undefined: Redis had none, a page new to the crawl). */
  visitOf(url: string): PageVisit | undefined {
    return this.held.get(url);
  }

  /**
   * The request of `url` ended; `visit` is the visit it made (a document, or a 304 for a page stored
   * elsewhere), saved at the next {@link flush}. A page whose content is the one of its last visit
   * keeps that visit's change time: the interval adapts to how long a page stays the same, whoever saw it.
   */
  ended(req: Page, visit: PageVisit | undefined): void {
    const last = this.held.get(req.url);
    this.held.delete(req.url);
    if (visit === undefined) return;
    const kept = last !== undefined && last.contentMd5 === visit.contentMd5 ? { ...visit, changedAt: Math.min(last.changedAt, visit.changedAt) } : visit;
    this.unsaved.push({ url: req.url, host: req.host, visit: kept });
  }

  /** Reads the visits of the requests a sync took, before any may start. */
  async loadTaken(taken: readonly Page[]): Promise<void> {
    const visits = await this.read(taken);
    for (const [i, req] of taken.entries()) {
      const visit = visits[i];
      if (visit) this.held.set(req.url, visit);
    }
  }

  /** Writes the visits ended since the last flush, one command per shard (and chunk) touched; on failure they wait for the next. */
  async flush(): Promise<void> {
    const ended = this.unsaved;
    if (ended.length === 0) return;
    this.unsaved = [];
    try {
      await Promise.all(this.byKey(ended).flatMap(([key, list]) => chunks(list).map((chunk) => this.redis.hset(key, ...chunk.flatMap(({ url, visit }) => [this.field(url), packVisit(visit)])))));
    } catch (err) {
      this.unsaved = ended.concat(this.unsaved);
      throw err;
    }
  }

  /** The visits of `pages` in Redis, in their order, one command per shard (and chunk) touched. */
  async read(pages: readonly Page[]): Promise<(PageVisit | undefined)[]> {
    const at = new Map(pages.map((p, i) => [p, i]));
    const visits = new Array<PageVisit | undefined>(pages.length);
    await Promise.all(
      this.byKey(pages).flatMap(([key, list]) =>
        chunks(list).map(async (chunk) => {
          const values = await this.redis.hmgetBuffer(key, ...chunk.map((p) => this.field(p.url)));
          chunk.forEach((p, i) => {
            const value = values[i];
            if (value) visits[at.get(p)!] = unpackVisit(value.toString('utf8'));
          });
        }),
      ),
    );
    return visits;
  }

  private field(url: string): Buffer {
    const [hi, lo] = fingerprintOf(this.canonical(url));
    const field = Buffer.allocUnsafe(8);
    field.writeUInt32BE(hi, 0);
    field.writeUInt32BE(lo, 4);
    return field;
  }

  /** Pages grouped by the key of their host's shard. */
  private byKey<P extends Page>(pages: readonly P[]): [string, P[]][] {
    const keys = new Map<string, P[]>();
    for (const p of pages) {
      const key = `${this.shards.prefixes[this.shards.shardOf(p.host)]}visits`;
      const list = keys.get(key);
      if (list) list.push(p);
      else keys.set(key, [p]);
    }
    return [...keys];
  }
}

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/**
 * A visit as Redis keeps it: `MD5 CHANGED FETCHED INTERVAL NEXT` (times in ms, base 36; the
 * interval in hours; empty when absent), then the ETag and the Last-Modified, each on a line of its
 * own (header values hold no line feed).
 *
 * @example
 * unpackVisit(packVisit(visit)) //=> visit
 */
export function packVisit(v: PageVisit): string {
  const t = (ms: number | undefined): string => (ms === undefined ? '' : ms.toString(36));
  return `${v.contentMd5} ${t(v.changedAt)} ${t(v.fetchedAt)} ${v.fetchIntervalHours ?? ''} ${t(v.nextFetch)}\n${v.etag ?? ''}\n${v.lastModified ?? ''}`;
}

/** The visit {@link packVisit} packed. */
export function unpackVisit(packed: string): PageVisit {
  const [head = '', etag = '', lastModified = ''] = packed.split('\n');
  const [contentMd5 = '', changed = '', fetched = '', interval = '', next = ''] = head.split(' ');
  return {
    etag: etag === '' ? null : etag,
    lastModified: lastModified === '' ? null : lastModified,
    contentMd5,
    fetchedAt: parseInt(fetched, 36),
    changedAt: parseInt(changed, 36),
    ...(interval !== '' ? { fetchIntervalHours: Number(interval) } : {}),
    ...(next !== '' ? { nextFetch: parseInt(next, 36) } : {}),
  };
}

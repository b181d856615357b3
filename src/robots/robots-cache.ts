import { FetchError } from '../fetch/fetch-error.js';
import type { FetchResponse } from '../model/fetch-response.js';
import { retryAfterMs } from '../fetch/retry-after.js';
import { RobotsTxt, expandRobotsTxt, parseRobotsTxtFor } from './robots-txt.js';

/** What is known of an origin's robots.txt. */
export type RobotsVerdict =
  | { readonly state: 'ready'; readonly rules: RobotsTxt }
  /**
   * 5xx, 429 or network failure: everything disallowed for now; `code` says why, `retry` whether
   * trying again may help, `retryAfterMs` how long the server asked us to wait (Retry-After).
   */
  | { readonly state: 'unavailable'; readonly code: string; readonly message: string; readonly retry: boolean; readonly retryAfterMs?: number };

export interface RobotsCacheOptions {
  /** Fetches a URL without following redirects (the cache follows them itself). */
  readonly fetch: (url: string) => Promise<FetchResponse>;
  readonly userAgent: string;
  readonly ttlMs: number;
  /**
   * Origins whose rules are kept compiled, ready to match; beyond it the least recently stored
   * are kept compact (see {@link maxIdleOrigins}). Default 1,000.
   */
  readonly maxOrigins?: number;
  /**
   * Origins kept compact (what their robots.txt says to this user agent, a few bytes for most) once
   * more than `maxOrigins` are known; beyond it the least recently stored is forgotten, and fetched
   * again if the crawl comes back to it. Default 200,000 (some 20 MB for as many hosts).
   */
  readonly maxIdleOrigins?: number;
  readonly maxRedirects?: number;
}

interface Entry {
  readonly verdict: RobotsVerdict;
  readonly expires: number;
  /** The verdict as a string, from which it is made again: `R` and the compact rules, or `U` and the verdict's JSON; none: not kept idle. */
  readonly compact?: string;
}

/**
 * robots.txt per origin, as RFC 9309 asks: fetched once (concurrent first requests share the fetch),
 * redirects followed up to 5 hops, 4xx = allow all, 5xx or network failure = disallow all, cached for
 * `robots-ttl`. The rules of the most recent origins are kept compiled, those of the origins before
 * them compact, and the oldest beyond that are forgotten: a broad crawl's hosts cost a few bytes
 * each while the crawl is elsewhere, and none is fetched twice within its `robots-ttl`. A 429 is
 * taken as a server error, as Google does: a server that asks us to slow down on robots.txt is not
 * one to crawl unrestrained. `peek` answers synchronously from the cache so admission can drop
 * disallowed URLs before they take a fetch slot.
 *
 * @example
 * const verdict = await robots.get('http://www.a.test');
 * verdict.state === 'ready' && verdict.rules.isAllowed('/private/x', 'tarantula') //=> false
 */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  /** Origins past `maxOrigins`: the expiry time, a space, and {@link Entry.compact}. */
  private readonly idle = new Map<string, string>();
  private readonly pending = new Map<string, Promise<RobotsVerdict>>();
  private readonly delays = new Map<string, number>();

  constructor(private readonly opts: RobotsCacheOptions) {}

  /** The cached verdict for an origin, or undefined when it must be fetched. */
  peek(origin: string, now = Date.now()): RobotsVerdict | undefined {
    const entry = this.entries.get(origin);
    if (entry === undefined) return this.wake(origin, now);
    if (entry.expires > now) return entry.verdict;
    this.entries.delete(origin);
    return undefined;
  }

  /** Origins whose verdict is known, compiled or compact. */
  get size(): number {
    return this.entries.size + this.idle.size;
  }

  /** The verdict for an origin, fetching robots.txt when it is not cached. Failures are not cached here. */
  get(origin: string): Promise<RobotsVerdict> {
    const cached = this.peek(origin);
    if (cached) return Promise.resolve(cached);
    let pending = this.pending.get(origin);
    if (pending === undefined) {
      pending = this.load(origin).finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  /** Remembers an origin whose robots.txt could not be had after every retry: its URLs are dropped, none retried. */
  giveUp(origin: string, verdict: RobotsVerdict): void {
    if (verdict.state === 'ready') return this.store(origin, verdict, undefined);
    const given: RobotsVerdict = { ...verdict, retry: false };
    this.store(origin, given, `U${JSON.stringify(given)}`);
  }

  /** The Crawl-delay of a politeness host (host[:port]) in ms, from whichever of its origins is cached. */
  crawlDelayMs(host: string): number {
    return this.delays.get(host) ?? 0;
  }

  private async load(origin: string): Promise<RobotsVerdict> {
    const [verdict, compact] = await this.fetchRobots(`${origin}/robots.txt`);
    if (verdict.state === 'ready') {
      this.store(origin, verdict, `R${compact}`);
      const seconds = verdict.rules.crawlDelaySeconds(this.opts.userAgent);
      const host = new URL(origin).host;
      if (seconds !== undefined && seconds > 0) this.delays.set(host, seconds * 1000);
      else this.delays.delete(host);
    }
    return verdict;
  }

  /** The verdict, and for one that is ready, its rules for this user agent as a compact string. */
  private async fetchRobots(first: string): Promise<[RobotsVerdict, string]> {
    let url = first;
    for (let hop = 0; hop <= (this.opts.maxRedirects ?? 5); hop++) {
      let res: FetchResponse;
      try {
        res = await this.opts.fetch(url);
      } catch (err) {
        const e = err instanceof FetchError ? err : new FetchError('network', String(err), 'retry');
        return [{ state: 'unavailable', code: e.code, message: `${url}: ${e.message}`, retry: e.action === 'retry' }, ''];
      }
      const location = res.headers['location'];
      if (res.status >= 300 && res.status < 400 && location) {
        const next = URL.canParse(location, url) ? new URL(location, url) : undefined;
        // A redirect that leads nowhere fetchable leaves robots.txt unavailable, as a 4xx does.
        if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:')) break;
        url = next.href;
        continue;
      }
      if (res.status >= 200 && res.status < 300) {
        const { rules, compact } = parseRobotsTxtFor(res.body, this.opts.userAgent);
        return [{ state: 'ready', rules }, compact];
      }
      if (res.status >= 400 && res.status < 500 && res.status !== 429) return [{ state: 'ready', rules: RobotsTxt.allowAll() }, ''];
      const asked = retryAfterMs(res.headers['retry-after']);
      return [{ state: 'unavailable', code: `http-${res.status}`, message: `${url}: HTTP ${res.status}`, retry: true, ...(asked !== undefined ? { retryAfterMs: asked } : {}) }, ''];
    }
    // RFC 9309 §2.3.1.2: more redirects than followed means unavailable, treated like a 4xx.
    return [{ state: 'ready', rules: RobotsTxt.allowAll() }, ''];
  }

  /** Stores a verdict among the compiled ones; `compact` undefined: forgotten rather than kept compact. */
  private store(origin: string, verdict: RobotsVerdict, compact: string | undefined, expires = Date.now() + this.opts.ttlMs): void {
    this.idle.delete(origin);
    this.entries.delete(origin);
    if (this.entries.size >= (this.opts.maxOrigins ?? 1_000)) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.compact === undefined) this.forget(oldest);
      else this.idle.set(oldest, `${entry.expires} ${entry.compact}`);
      if (this.idle.size > (this.opts.maxIdleOrigins ?? 200_000)) this.forget(this.idle.keys().next().value!);
    }
    this.entries.set(origin, compact === undefined ? { verdict, expires } : { verdict, expires, compact });
  }

  /** An origin's compact verdict compiled again, once more among the recent ones; undefined when it is not kept or has expired. */
  private wake(origin: string, now: number): RobotsVerdict | undefined {
    const kept = this.idle.get(origin);
    if (kept === undefined) return undefined;
    const space = kept.indexOf(' ');
    const expires = Number(kept.slice(0, space));
    if (expires <= now) {
      this.idle.delete(origin);
      return undefined;
    }
    const compact = kept.slice(space + 1);
    const verdict: RobotsVerdict = compact.startsWith('R') ? { state: 'ready', rules: expandRobotsTxt(compact.slice(1)) } : (JSON.parse(compact.slice(1)) as RobotsVerdict);
    this.store(origin, verdict, compact, expires);
    return verdict;
  }

  private forget(origin: string): void {
    this.idle.delete(origin);
    this.delays.delete(new URL(origin).host);
  }
}

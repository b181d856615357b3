import { FetchError } from '../fetch/fetch-error.js';
import type { FetchResponse } from '../model/fetch-response.js';
import { retryAfterMs } from '../fetch/retry-after.js';
import { RobotsTxt, parseRobotsTxt } from './robots-txt.js';

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
  /** Origins kept; the least recently stored is forgotten beyond it. */
  readonly maxOrigins?: number;
  readonly maxRedirects?: number;
}

interface Entry {
  readonly verdict: RobotsVerdict;
  readonly expires: number;
}

/**
 * robots.txt per origin, as RFC 9309 asks: fetched once (concurrent first requests share the fetch),
 * redirects followed up to 5 hops, 4xx = allow all, 5xx or network failure = disallow all, cached for
 * `robots-ttl`. A 429 is taken as a server error, as Google does: a server that asks us to slow down
 * on robots.txt is not one to crawl unrestrained. `peek` answers synchronously from the cache so admission can drop disallowed URLs
 * before they take a fetch slot.
 *
 * @example
 * const verdict = await robots.get('http://www.a.test');
 * verdict.state === 'ready' && verdict.rules.isAllowed('/private/x', 'tarantula') //=> false
 */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<RobotsVerdict>>();
  private readonly delays = new Map<string, number>();

  constructor(private readonly opts: RobotsCacheOptions) {}

  /** The cached verdict for an origin, or undefined when it must be fetched. */
  peek(origin: string, now = Date.now()): RobotsVerdict | undefined {
    const entry = this.entries.get(origin);
    if (entry === undefined) return undefined;
    if (entry.expires > now) return entry.verdict;
    this.entries.delete(origin);
    return undefined;
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
    this.store(origin, verdict.state === 'unavailable' ? { ...verdict, retry: false } : verdict);
  }

  /** The Crawl-delay of a politeness host (host[:port]) in ms, from whichever of its origins is cached. */
  crawlDelayMs(host: string): number {
    return this.delays.get(host) ?? 0;
  }

  private async load(origin: string): Promise<RobotsVerdict> {
    const verdict = await this.fetchRobots(`${origin}/robots.txt`);
    if (verdict.state === 'ready') {
      this.store(origin, verdict);
      const seconds = verdict.rules.crawlDelaySeconds(this.opts.userAgent);
      const host = new URL(origin).host;
      if (seconds !== undefined && seconds > 0) this.delays.set(host, seconds * 1000);
      else this.delays.delete(host);
    }
    return verdict;
  }

  private async fetchRobots(first: string): Promise<RobotsVerdict> {
    let url = first;
    for (let hop = 0; hop <= (this.opts.maxRedirects ?? 5); hop++) {
      let res: FetchResponse;
      try {
        res = await this.opts.fetch(url);
      } catch (err) {
        const e = err instanceof FetchError ? err : new FetchError('network', String(err), 'retry');
        return { state: 'unavailable', code: e.code, message: `${url}: ${e.message}`, retry: e.action === 'retry' };
      }
      const location = res.headers['location'];
      if (res.status >= 300 && res.status < 400 && location) {
        const next = URL.canParse(location, url) ? new URL(location, url) : undefined;
        // A redirect that leads nowhere fetchable leaves robots.txt unavailable, as a 4xx does.
        if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:')) break;
        url = next.href;
        continue;
      }
      if (res.status >= 200 && res.status < 300) return { state: 'ready', rules: parseRobotsTxt(res.body) };
      if (res.status >= 400 && res.status < 500 && res.status !== 429) return { state: 'ready', rules: RobotsTxt.allowAll() };
      const asked = retryAfterMs(res.headers['retry-after']);
      return { state: 'unavailable', code: `http-${res.status}`, message: `${url}: HTTP ${res.status}`, retry: true, ...(asked !== undefined ? { retryAfterMs: asked } : {}) };
    }
    // RFC 9309 §2.3.1.2: more redirects than followed means unavailable, treated like a 4xx.
    return { state: 'ready', rules: RobotsTxt.allowAll() };
  }

  private store(origin: string, verdict: RobotsVerdict): void {
    const max = this.opts.maxOrigins ?? 10_000;
    if (this.entries.size >= max) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.delays.delete(new URL(oldest).host);
    }
    this.entries.delete(origin);
    this.entries.set(origin, { verdict, expires: Date.now() + this.opts.ttlMs });
  }
}

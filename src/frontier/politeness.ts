import type { DelayPolicy } from './host-frontier.js';

/** The politeness keys of the configuration, and where Crawl-delay is read. */
export interface PolitenessOptions {
  /** Delay = factor × duration of the host's last fetch, clamped to [minDelayMs, maxDelayMs]. */
  readonly delayFactor: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** The robots.txt Crawl-delay of a host in ms, a floor under the delay. */
  readonly crawlDelayMs?: (host: string) => number;
  /**
   * `max-crawl-delay` in ms; 0 = no limit. A host whose Crawl-delay is above it is skipped: none of
   * its requests goes out, so none waits for it.
   */
  readonly maxCrawlDelayMs?: number;
}

/**
 * Heritrix's politeness rule: after a request to a host ends, the host rests for `delay-factor` ×
 * the duration of that request, clamped to [min-delay, max-delay], and at least its robots.txt
 * Crawl-delay and any back-off a 429/503 asked for. State is kept only between a fetch and the
 * release of its slot, so the maps hold at most one entry per request in flight.
 *
 * @example
 * const p = new Politeness({ delayFactor: 5, minDelayMs: 3000, maxDelayMs: 30000 });
 * p.recordFetch('a.test', 1000); p.delayMs('a.test') //=> 5000
 */
export class Politeness implements DelayPolicy {
  private readonly lastDuration = new Map<string, number>();
  private readonly backoffs = new Map<string, number>();

  constructor(private readonly opts: PolitenessOptions) {}

  /** Remembers how long the host took to answer: `delay-factor` scales the next delay by it. */
  recordFetch(host: string, durationMs: number): void {
    this.lastDuration.set(host, durationMs);
  }

  /** Asks that `host` be left alone for at least `ms` after its current request (Retry-After, back-off). */
  backoff(host: string, ms: number): void {
    this.backoffs.set(host, Math.max(ms, this.backoffs.get(host) ?? 0));
  }

  /**
   * The rest the host needs after a request: the largest of the floor, the delay factor, Crawl-delay
   * and a back-off; none for a host skipped for its Crawl-delay, whose queued requests are all
   * skipped without contacting it.
   */
  delayMs(host: string): number {
    const { delayFactor, minDelayMs, maxDelayMs } = this.opts;
    const duration = this.lastDuration.get(host) ?? 0;
    this.lastDuration.delete(host);
    const crawlDelay = this.opts.crawlDelayMs?.(host) ?? 0;
    const maxCrawlDelay = this.opts.maxCrawlDelayMs ?? 0;
    if (maxCrawlDelay > 0 && crawlDelay > maxCrawlDelay) {
      this.backoffs.delete(host);
      return 0;
    }
    let delay = delayFactor * duration;
    if (delay < minDelayMs) delay = minDelayMs;
    if (maxDelayMs > 0 && delay > maxDelayMs) delay = Math.max(minDelayMs, maxDelayMs);
    const backoff = this.backoffs.get(host) ?? 0;
    this.backoffs.delete(host);
    return Math.max(delay, crawlDelay, backoff);
  }
}

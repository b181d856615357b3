import type { PolitenessOptions } from '../frontier/politeness.js';
import { Politeness } from '../frontier/politeness.js';
import type { FetchResponse } from '../model/fetch-response.js';

/**
 * The politeness of the browser's requests to hosts other than the rendered page's
 * (`render-third-party`): one at a time to each host, whichever page asks, and after each the rest
 * the crawler gives that host after a fetch (`delay-factor` × its duration within `min-delay` and
 * `max-delay`, at least its robots.txt Crawl-delay). Its own {@link Politeness}, so that the frontier's
 * is not read from two sides.
 *
 * @example
 * const gate = new HostGate({ delayFactor: 5, minDelayMs: 3000, maxDelayMs: 30000 });
 * await gate.through('cdn.test', () => fetchDocument('http://cdn.test/lib.js', options));
 */
export class HostGate {
  private readonly politeness: Politeness;
  /** Host → the end of its last request's rest; a host is forgotten once it has rested. */
  private readonly tails = new Map<string, Promise<void>>();

  constructor(opts: PolitenessOptions) {
    this.politeness = new Politeness(opts);
  }

  /** `fetch`, once the host's earlier requests have ended and it has rested after them. */
  through(host: string, fetch: () => Promise<FetchResponse>): Promise<FetchResponse> {
    const before = this.tails.get(host) ?? Promise.resolve();
    let rested!: () => void;
    const tail = before.then(() => new Promise<void>((done) => (rested = done)));
    this.tails.set(host, tail);
    const rest = (durationMs: number): void => {
      this.politeness.recordFetch(host, durationMs);
      const timer = setTimeout(() => {
        if (this.tails.get(host) === tail) this.tails.delete(host);
        rested();
      }, this.politeness.delayMs(host));
      timer.unref();
    };
    return before.then(fetch).then(
      (response) => {
        rest(response.durationMs);
        return response;
      },
      (err: unknown) => {
        rest(0);
        throw err;
      },
    );
  }
}

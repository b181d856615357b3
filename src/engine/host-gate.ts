import type { Politeness } from '../frontier/politeness.js';
import type { FetchResponse } from '../model/fetch-response.js';

/** Where the slots of hosts are kept: the crawl's frontier, when it lends them. */
export interface SlotLender {
  /** 0 once a slot of `host` is taken, else the milliseconds to wait before asking again. */
  borrow(host: string, now: number): number;
  /** The slot is free again; the host rests for its politeness delay. */
  giveBack(host: string, now: number): void;
  /** The slot asked for is no longer wanted. */
  forgo(host: string): void;
}

const sleep = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms));

/**
 * The politeness of the browser's requests to hosts other than the rendered page's
 * (`render-third-party`): one at a time to each host, whichever page asks. With a `lender` (the
 * crawl's own frontier), each takes one of the host's slots as a request of the crawler would —
 * `max-per-host` counts it with the crawler's own requests, the host's own requests wait behind it,
 * and after it the host rests as after any fetch (`delay-factor` × its duration within `min-delay`
 * and `max-delay`, at least its robots.txt Crawl-delay); a request that found no slot free within
 * `patienceMs` is refused. Without one (a frontier shared through
 * Redis, whose hosts are leased to the workers), the gate gives each host that rest itself, and
 * should then be given a {@link Politeness} of its own, not the frontier's.
 *
 * @example
 * const gate = new HostGate(politeness, frontier);
 * await gate.through('cdn.test', () => fetchDocument('http://cdn.test/lib.js', options));
 */
export class HostGate {
  /** Host → the end of its last request (and, without a lender, of its rest); forgotten once it has ended. */
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * @param patienceMs how long a request waits for a slot of its host before it is refused: a page
   *   waiting for a render thread holds its host's slot, which a page being rendered may want
   */
  constructor(
    private readonly politeness: Politeness,
    private readonly lender?: SlotLender,
    private readonly patienceMs = Infinity,
  ) {}

  /** `fetch`, once the host's earlier requests from the browser have ended and a slot of the host is free. */
  through(host: string, fetch: () => Promise<FetchResponse>): Promise<FetchResponse> {
    const run = (this.tails.get(host) ?? Promise.resolve()).then(() => this.slotted(host, fetch));
    const tail = run.then(
      () => this.rest(host),
      () => this.rest(host),
    );
    this.tails.set(host, tail);
    void tail.then(() => {
      if (this.tails.get(host) === tail) this.tails.delete(host);
    });
    return run;
  }

  private async slotted(host: string, fetch: () => Promise<FetchResponse>): Promise<FetchResponse> {
    const lender = this.lender;
    if (lender !== undefined) {
      const until = Date.now() + this.patienceMs;
      for (let wait = lender.borrow(host, Date.now()); wait > 0; wait = lender.borrow(host, Date.now())) {
        if (Date.now() + wait > until) {
          lender.forgo(host);
          throw new Error(`no slot of ${host} was free within ${this.patienceMs} ms`);
        }
        await sleep(wait);
      }
    }
    let durationMs = 0;
    try {
      const response = await fetch();
      durationMs = response.durationMs;
      return response;
    } finally {
      this.politeness.recordFetch(host, durationMs);
      lender?.giveBack(host, Date.now());
    }
  }

  /** Without a lender, the host's rest after a request; with one, the frontier keeps it. */
  private rest(host: string): Promise<void> | undefined {
    return this.lender === undefined ? sleep(this.politeness.delayMs(host)) : undefined;
  }
}

import type { Dispatcher as DispatcherType } from 'undici';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';

/** How {@link OriginPools} makes and keeps the connections of each origin. */
export interface OriginPoolsOptions {
  /** The connections of one origin (undici's Pool, or a Client for one connection). */
  readonly factory: (origin: string) => DispatcherType;
  /** Idle origins whose connections are kept open; beyond it the least recently used are closed. */
  readonly maxIdle: number;
}

/**
 * The reason given to the connections of an idle origin as they are closed: one error for them
 * all, since undici otherwise builds an error with its stack trace for each pool, connection and
 * socket it closes. Its code is undici's for an informational close, which fails no request.
 */
const IDLE_CLOSE = Object.assign(new Error('idle origin closed'), { code: 'UND_ERR_INFO' });
const ignore = (): void => undefined;

/**
 * undici's Agent, with the number of idle origins bounded: one connection pool per origin, kept
 * while the origin is among the `maxIdle` most recently used, closed (with no error built on the
 * way) once more idle ones than that are kept. A broad crawl touches each host for a moment: the
 * Agent kept every host's pool open until its keep-alive ran out, thousands of sockets and their
 * buffers, and closed each at a cost of several errors and their stack traces.
 *
 * @example
 * const pools = new OriginPools({ factory: (origin) => new Pool(origin, { connect }), maxIdle: 256 });
 */
export class OriginPools extends Dispatcher {
  /** In order of last use: the least recently used origin first. */
  private readonly pools = new Map<string, DispatcherType>();

  constructor(private readonly opts: OriginPoolsOptions) {
    super();
  }

  /** Origins with a pool, idle or busy. */
  get size(): number {
    return this.pools.size;
  }

  override dispatch(options: DispatcherType.DispatchOptions, handler: DispatcherType.DispatchHandler): boolean {
    const key = String(options.origin);
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = this.opts.factory(key);
      // A quarter over the bound before closing: one walk closes many, not one per new origin.
      if (this.pools.size >= this.opts.maxIdle + (this.opts.maxIdle >> 2)) this.closeIdle();
    } else this.pools.delete(key);
    this.pools.set(key, pool);
    return pool.dispatch(options, handler);
  }

  override close(): Promise<void> {
    return this.endAll((p) => p.close());
  }

  override destroy(): Promise<void> {
    return this.endAll((p) => p.destroy());
  }

  private endAll(end: (pool: DispatcherType) => Promise<void>): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    return Promise.all(pools.map(end)).then(ignore);
  }

  /** Closes the least recently used idle origins until `maxIdle` remain; busy ones (at most the requests in flight) stay. */
  private closeIdle(): void {
    let excess = this.pools.size - this.opts.maxIdle;
    for (const [key, pool] of this.pools) {
      if (excess <= 0) break;
      if (stats(pool).size > 0) continue;
      this.pools.delete(key);
      pool.destroy(IDLE_CLOSE, ignore);
      excess--;
    }
  }
}

/** Requests queued or running on a pool or client (undici's stats of both have `size`). */
const stats = (pool: DispatcherType): { readonly size: number } => (pool as unknown as { readonly stats: { readonly size: number } }).stats;

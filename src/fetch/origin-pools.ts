import type { Dispatcher as DispatcherType } from 'undici';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';

/** How {@link OriginPools} makes and keeps the connections of each origin. */
export interface OriginPoolsOptions {
  /** One connection to an origin (undici's Client). */
  readonly factory: (origin: string) => DispatcherType;
  /** Connections an origin may have open at once. Default 1. */
  readonly connections?: number;
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
 * undici's Agent, with the number of idle origins bounded: up to `connections` connections per
 * origin, kept while the origin is among the `maxIdle` most recently used, closed (with no error
 * built on the way) once more idle ones than that are kept. A broad crawl touches each host for a
 * moment: the Agent kept every host's pool open until its keep-alive ran out, thousands of sockets
 * and their buffers, and closed each at a cost of several errors and their stack traces.
 *
 * A request goes to an idle connection of its origin when there is one. undici's Pool did not: the
 * connection a first request opens counts as busy until it drains, so a Pool of two connected a
 * second one for the request right after (a host's page after its robots.txt), a connection a
 * request on every host of a broad crawl.
 *
 * @example
 * const pools = new OriginPools({ factory: (origin) => new Client(origin, { connect }), connections: 2, maxIdle: 256 });
 */
export class OriginPools extends Dispatcher {
  /** Each origin's connections, in order of last use: the least recently used origin first. */
  private readonly pools = new Map<string, DispatcherType[]>();
  private readonly connections: number;

  constructor(private readonly opts: OriginPoolsOptions) {
    super();
    this.connections = Math.max(1, opts.connections ?? 1);
  }

  /** Origins with a pool, idle or busy. */
  get size(): number {
    return this.pools.size;
  }

  override dispatch(options: DispatcherType.DispatchOptions, handler: DispatcherType.DispatchHandler): boolean {
    const key = String(options.origin);
    let clients = this.pools.get(key);
    if (clients === undefined) {
      clients = [];
      // A quarter over the bound before closing: one walk closes many, not one per new origin.
      if (this.pools.size >= this.opts.maxIdle + (this.opts.maxIdle >> 2)) this.closeIdle();
    } else this.pools.delete(key);
    this.pools.set(key, clients);
    return this.pick(key, clients).dispatch(options, handler);
  }

  /** An idle connection of the origin, else a new one while under `connections`, else the least busy. */
  private pick(origin: string, clients: DispatcherType[]): DispatcherType {
    let least: DispatcherType | undefined;
    let leastSize = Infinity;
    for (const client of clients) {
      const size = stats(client).size;
      if (size === 0) return client;
      if (size < leastSize) {
        least = client;
        leastSize = size;
      }
    }
    if (least !== undefined && clients.length >= this.connections) return least;
    const client = this.opts.factory(origin);
    clients.push(client);
    return client;
  }

  override close(): Promise<void> {
    return this.endAll((p) => p.close());
  }

  override destroy(): Promise<void> {
    return this.endAll((p) => p.destroy());
  }

  private endAll(end: (client: DispatcherType) => Promise<void>): Promise<void> {
    const clients = [...this.pools.values()].flat();
    this.pools.clear();
    return Promise.all(clients.map(end)).then(ignore);
  }

  /** Closes the least recently used idle origins until `maxIdle` remain; busy ones (at most the requests in flight) stay. */
  private closeIdle(): void {
    let excess = this.pools.size - this.opts.maxIdle;
    for (const [key, clients] of this.pools) {
      if (excess <= 0) break;
      if (clients.some((client) => stats(client).size > 0)) continue;
      this.pools.delete(key);
      for (const client of clients) client.destroy(IDLE_CLOSE, ignore);
      excess--;
    }
  }
}

/** Requests queued or running on a client (undici's stats have `size`). */
const stats = (client: DispatcherType): { readonly size: number } => (client as unknown as { readonly stats: { readonly size: number } }).stats;

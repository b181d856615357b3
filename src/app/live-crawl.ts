import type { CrawlContext } from '../engine/crawl-context.js';
import { seedLine } from '../input/seed-line.js';
import { EXIT } from './exit-status.js';
import type { Stopping } from './stopping.js';

/** Where a running crawl is: fetching, paused (no new request starts), or stopping (flushing its sinks). */
export type RunState = 'running' | 'paused' | 'stopping';

/** What a server of a running crawl (`--serve`) reads and steers. */
export interface LiveCrawl {
  readonly ctx: CrawlContext;
  readonly state: RunState;
  /** No new request starts; the requests in flight finish. */
  pause(): void;
  resume(): void;
  /** Stops the crawl as SIGTERM does: in-flight requests stay pending, the sinks are flushed, exit 143, resumable. */
  stop(why: string): void;
  /**
   * Admits seeds, a URL a line (the lines `-i FILE` takes), each widening the scope as an input
   * file's seeds do; returns how many were taken and the lines refused, with why.
   */
  addSeeds(text: string): { readonly taken: number; readonly refused: readonly string[] };
}

/** Starts serving a running crawl; resolves once it listens (told to `listening` with its URL), to the function that closes it. */
export type ServeCrawl = (crawl: LiveCrawl, listening?: (url: string) => void) => Promise<() => Promise<void>>;

/**
 * The seeds of a POST /seeds body, a URL a line (the lines `-i FILE` takes), and the lines refused, with why.
 *
 * @example
 * seedsOfText('http://a.test/\n/b') //=> { urls: ['http://a.test/'], refused: ['line 2: "/b" is not an absolute http(s) URL'] }
 */
export function seedsOfText(text: string): { readonly urls: readonly string[]; readonly refused: readonly string[] } {
  const refused: string[] = [];
  const urls: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const seed = seedLine(line);
    if (seed === undefined) return;
    if ('refused' in seed) refused.push(`line ${i + 1}: ${seed.refused}`);
    else urls.push(seed.url);
  });
  return { urls, refused };
}

/**
 * The running crawl as its server sees it: the context, the stop, and the pause and seeds of
 * `ctx.control`.
 *
 * @example
 * const live = liveCrawl(ctx, stop); live.pause(); live.state //=> 'paused'
 */
export function liveCrawl(ctx: CrawlContext, stop: Stopping): LiveCrawl {
  return {
    ctx,
    get state(): RunState {
      return stop.interrupted ? 'stopping' : ctx.control.paused ? 'paused' : 'running';
    },
    pause: () => ctx.control.pause(),
    resume: () => ctx.control.resume(),
    stop: (why) => stop.halt(EXIT.sigterm, why, true),
    addSeeds(text) {
      const { urls, refused } = seedsOfText(text);
      for (const url of urls) ctx.admission.widenScope(url);
      ctx.control.add(urls.map((href) => ({ href, depth: 0, seed: true })));
      return { taken: urls.length, refused };
    },
  };
}

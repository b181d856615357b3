import type { CrawlRequest } from '../model/crawl-request.js';

/** What a prioritizer may know of the crawl beside the request. */
export interface PriorityContext {
  /** Priority levels of the frontier (priority-levels): a level is 1 (lowest) to this. */
  readonly levels: number;
  /** Links to `url` seen so far (approximate: see {@link inLinkCounts}). */
  inLinks(url: string): number;
}

/** The part of a request a prioritizer looks at. */
export type PrioritizedRequest = Pick<CrawlRequest, 'url' | 'depth'>;

/**
 * Gives an admitted request its priority level, 1 (lowest) to `ctx.levels` (SPEC §10). A pipeline
 * replaces it through `crawlContext`'s options (or builds its frontier with its own `levelOf`).
 * It is asked again when one more link to a still-pending URL is found, and a higher answer then
 * moves the URL up.
 */
export type Prioritizer = (req: PrioritizedRequest, ctx: PriorityContext) => number;

/**
 * The default prioritizer: seeds on the top level; other pages by their in-links so far, one level
 * per factor of 4 (1–3 links: level 1, 4–15: 2, 16–63: 3, 64 or more: 4, capped at `levels`).
 * Shallower pages come first within a level because each level's queue keeps the traversal order
 * (FIFO for breadth-first): a depth term in the level would make breadth-first less shallow-first,
 * since the selector takes lower levels too.
 *
 * @example
 * defaultPrioritizer({ url: 'http://a.test/x', depth: 2 }, { levels: 4, inLinks: () => 20 }) //=> 3
 */
export const defaultPrioritizer: Prioritizer = (req, ctx) => {
  if (req.depth === 0) return ctx.levels;
  const links = ctx.inLinks(req.url);
  return links < 4 ? 1 : Math.min(ctx.levels, 1 + Math.floor(Math.log2(links) / 2));
};

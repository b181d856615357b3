import type { Writable } from 'node:stream';
import type { Observable } from 'rxjs';
import type { IndexWriter } from '../output/index-writer.js';
import type { CrawlContext } from './crawl-context.js';

/** What a pipeline gets besides the crawl's context: the stop signal, the index writers, stdout. */
export interface CrawlSinks {
  /** Emits when the crawl must stop (signal, time limit, broken pipe); pass it to `crawl({ stop })`. */
  readonly stop: Observable<unknown>;
  /** REPOSITORY/index.txt and the `--index` destination, in their formats. */
  readonly writers: readonly IndexWriter[];
  /** Where data goes: stdout (never logs). */
  readonly stdout: Writable;
}

/**
 * A pipeline: builds the crawl's observable from its context. `tarantula run FILE` runs the default
 * export of FILE with the usual configuration, flags, state and sinks; the crawl ends when it completes.
 */
export type Pipeline = (ctx: CrawlContext, sinks: CrawlSinks) => Observable<unknown>;

/**
 * Declares a pipeline file's default export, with its types checked.
 *
 * @example
 * // pipelines/linkgraph.ts
 * export default definePipeline((ctx, { stop, stdout }) =>
 *   crawl({ ...defaultSpec(ctx), stop }).pipe(recordStats(ctx.stats), journalOutcomes(ctx.state.journal), writeEdges(stdout)));
 */
export function definePipeline(pipeline: Pipeline): Pipeline {
  return pipeline;
}

import type { Writable } from 'node:stream';
import type { Observable } from 'rxjs';
import type { IndexWriter } from '../output/index-writer.js';
import type { CrawlContext } from './crawl-context.js';

/**
 * The one way to end a crawl early. Pass it to `crawl({ stop })`: it emits the reason when the crawl
 * must stop (a signal, the time limit, a closed stdout, or `now`).
 */
export interface CrawlStop extends Observable<string> {
  /**
   * Ends the crawl early, from a sink or an operator that has what it wants: no new request starts,
   * the requests in flight are cut short and stay pending (in the frontier and the journal), every
   * sink is flushed, and the same command resumes where this one stopped. The exit status stays 0.
   */
  now(reason: string): void;
}

/** What a pipeline gets besides the crawl's context: the stop, the index writers, stdout. */
export interface CrawlSinks {
  readonly stop: CrawlStop;
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
 * // ends the crawl at the tenth PDF; the same command resumes it
 * export default definePipeline((ctx, sinks) => {
 *   let pdfs = 0;
 *   return crawl({ ...defaultSpec(ctx), stop: sinks.stop }).pipe(defaultSinks(ctx, sinks),
 *     tap((o) => o.kind === 'document' && o.doc.type === 'pdf' && ++pdfs === 10 && sinks.stop.now('ten PDFs')));
 * });
 */
export function definePipeline(pipeline: Pipeline): Pipeline {
  return pipeline;
}

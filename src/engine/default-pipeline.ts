import { pipe, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import type { Outcome } from '../model/outcome.js';
import { journalOutcomes } from '../sinks/journal-outcomes.js';
import { logOutcomes } from '../sinks/log-outcomes.js';
import { recordStats } from '../sinks/record-stats.js';
import { writeIndex } from '../sinks/write-index.js';
import type { CrawlContext } from './crawl-context.js';
import { crawl, type CrawlSpec } from './crawl.js';
import { defaultSpec } from './default-spec.js';
import type { CrawlSinks } from './pipeline.js';

/**
 * The sinks every crawl needs, in their order: stats, the log, the crawl journal (without it the
 * crawl cannot be resumed or recrawled), then the index writers. Put your own operators after it.
 *
 * @example
 * crawl({ ...defaultSpec(ctx), stop }).pipe(defaultSinks(ctx, sinks), tap(myOperator))
 * //=> every outcome, counted, logged, journaled and indexed
 */
export function defaultSinks(ctx: CrawlContext, { writers }: Pick<CrawlSinks, 'writers'>): MonoTypeOperatorFunction<Outcome> {
  return pipe(recordStats(ctx.stats), logOutcomes(ctx.log), journalOutcomes(ctx.state.journal), writeIndex(writers));
}

/**
 * The pipeline of `tarantula crawl`: SPEC §1's crawl ({@link defaultSpec}, or `spec`), then
 * {@link defaultSinks}.
 *
 * @example
 * await runCrawl(config, log, { stdout, pipeline: defaultPipeline });
 */
export function defaultPipeline(ctx: CrawlContext, sinks: CrawlSinks, spec: CrawlSpec<Outcome> = defaultSpec(ctx)): Observable<Outcome> {
  return crawl({ ...spec, stop: sinks.stop }).pipe(defaultSinks(ctx, sinks));
}

/**
 * The default pipeline: what `tarantula crawl` runs, spelled out so you can copy it and change it.
 *
 *   tarantula run default Crawler.conf
 *
 * The crawl loop (frontier, politeness, robots.txt, fetch, parse, mirror) feeds its outcomes to the
 * sinks: stats, the log, the crawl journal (resume and recrawl) and the index writers.
 */
import { crawl, defaultSpec, definePipeline, journalOutcomes, logOutcomes, recordStats, writeIndex } from 'tarantula';

export default definePipeline((ctx, { stop, writers }) =>
  crawl({ ...defaultSpec(ctx), stop }).pipe(
    recordStats(ctx.stats),
    logOutcomes(ctx.log),
    journalOutcomes(ctx.state.journal),
    writeIndex(writers),
  ),
);

/**
 * The default pipeline: what `tarantula crawl` runs, spelled out so you can copy it and change it.
 *
 *   tarantula run default Crawler.conf
 *
 * The crawl loop (frontier, politeness, robots.txt, fetch, parse, mirror) feeds its outcomes to the
 * default sinks: stats, the log, the crawl journal (resume and recrawl) and the index writers. Put
 * your own operators after `defaultSinks`; leaving it out leaves the crawl without a journal to resume.
 */
import { crawl, defaultSinks, defaultSpec, definePipeline } from 'tarantula';

export default definePipeline((ctx, sinks) => crawl({ ...defaultSpec(ctx), stop: sinks.stop }).pipe(defaultSinks(ctx, sinks)));

/**
 * Crawl, then rank: builds the link graph while it crawls (only the graph is kept, as integer ids in
 * typed arrays) and, once the crawl ends, prints the top pages by PageRank with their out- and
 * in-degrees, like the Heritrix report's table 2. The mirror and index.txt are written as usual.
 *
 *   tarantula run pagerank Crawler.conf
 *   TOP=25 tarantula run pagerank Crawler.conf
 */
import { concat, defer, ignoreElements, tap } from 'rxjs';
import { crawl, defaultSinks, defaultSpec, definePipeline } from 'tarantula';
import { formatRanking, LinkGraphBuilder, pagerank, rankPages } from 'tarantula/parts';

const TOP = Number(process.env['TOP'] ?? 10);

export default definePipeline((ctx, sinks) => {
  const graph = new LinkGraphBuilder();
  const crawled = crawl({ ...defaultSpec(ctx), stop: sinks.stop }).pipe(
    defaultSinks(ctx, sinks),
    tap((o) => {
      if (o.kind === 'document' && o.indexed) graph.addPage(o.record.url, o.record.links);
    }),
    ignoreElements(),
  );
  const ranking = defer(() => {
    const built = graph.build();
    const { scores } = pagerank(built, { damping: 0.85 });
    for (const line of formatRanking(rankPages(built, scores, TOP), 'table')) sinks.stdout.write(line);
    return [];
  });
  return concat(crawled, ranking);
});

/**
 * The link graph to stdout: one `FROM<TAB>TO` line per link of every indexed page, while it crawls.
 *
 *   tarantula run linkgraph Crawler.conf | sort | uniq -c | sort -rn | head
 *
 * The mirror, index.txt and the journal are written as usual, so the crawl can be resumed: when the
 * reader goes away (`| head`), `stop.now` ends the crawl and what was in flight stays pending.
 */
import { finalize, from, switchMap } from 'rxjs';
import { crawl, defaultSinks, defaultSpec, definePipeline, IndexWriter } from 'tarantula';

export default definePipeline((ctx, { stop, writers, stdout }) =>
  from(IndexWriter.open(stdout, { format: 'edges', onBrokenPipe: () => stop.now('stdout closed') })).pipe(
    switchMap((edges) =>
      crawl({ ...defaultSpec(ctx), stop }).pipe(
        defaultSinks(ctx, { writers: [...writers, edges] }),
        finalize(() => void edges.close()),
      ),
    ),
  ),
);

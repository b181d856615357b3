/**
 * Only the PDFs: composes a user operator after the crawl, printing `URL<TAB>BYTES` for each PDF
 * fetched. The crawl still follows every HTML page (that is how PDFs are found) and writes the
 * mirror and index.txt as usual.
 *
 *   tarantula run pdfs Crawler.conf > pdfs.tsv
 */
import { filter, tap, type MonoTypeOperatorFunction } from 'rxjs';
import { crawl, defaultSinks, defaultSpec, definePipeline, type Outcome } from 'tarantula';

/** A user-land operator: writes one line per PDF document to `out`. */
function listPdfs(out: NodeJS.WritableStream): MonoTypeOperatorFunction<Outcome> {
  return (outcome$) =>
    outcome$.pipe(
      filter((o) => o.kind === 'document' && o.doc.type === 'pdf'),
      tap((o) => out.write(`${o.req.url}\t${o.kind === 'document' ? o.bytes : 0}\n`)),
    );
}

export default definePipeline((ctx, sinks) =>
  crawl({ ...defaultSpec(ctx), stop: sinks.stop }).pipe(defaultSinks(ctx, sinks), listPdfs(sinks.stdout)),
);

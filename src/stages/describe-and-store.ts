import type { OperatorFunction } from 'rxjs';
import type { Fetched, Outcome } from '../model/outcome.js';
import { passOutcomes } from './pass-outcomes.js';
import type { DocumentPool } from '../workers/document-pool.js';
import type { ContentSeen } from '../frontier/content-seen.js';
import type { DropReport } from '../model/filter-reason.js';
import { documentInfo, type NearDuplicates } from './parse-document.js';
import { toDocument, type PreviousCopy } from './store-document.js';
import { noRoom } from '../store/no-room.js';
import type { DocumentJob } from '../workers/document-job.js';
import type { Writable } from '../model/writable.js';

/**
 * `parseDocument` and `storeDocument` in one step, run on the worker threads of a
 * {@link DocumentPool}: the default unit's way to use the other cores. Same results, same records.
 * `previous` says where the last crawl stored a URL (a recrawl), so that its new copy replaces the old one there.
 *
 * @example
 * of(fetched).pipe(describeAndStore(pool, contentSeen, report)) //=> { kind: 'document', record: {...} }
 */
export function describeAndStore(
  pool: DocumentPool,
  contentSeen: ContentSeen,
  report: DropReport,
  near?: NearDuplicates,
  previous?: PreviousCopy,
): OperatorFunction<Fetched | Outcome, Outcome> {
  return passOutcomes(({ req, response, kept, rendered }: Fetched) => {
    const h = response.headers;
    const bytes = response.body.byteLength;
    const before = kept === undefined ? previous?.(req.url) : undefined;
    const job: Writable<Omit<DocumentJob, 'id'>> = { url: req.url, contentType: h['content-type'], xRobotsTag: h['x-robots-tag'], body: response.body, store: kept === undefined };
    if (before !== undefined) job.previous = before;
    if (rendered) job.rendered = rendered;
    return pool.run(job).then((result): Outcome => {
      // A repository that can take no more (a full disk) is no failure of the page: it stays pending, and the pool's `full` stops the crawl.
      if ('error' in result) return noRoom(result.code) ? { kind: 'unfinished', req } : { kind: 'failed', req, code: result.code ?? 'store-error', message: result.error };
      for (const [reason, url] of result.dropped) report(reason, url);
      const doc = documentInfo(req, result.description, contentSeen, near);
      const localPath = kept?.localPath ?? result.localPath!;
      return toDocument(kept ? { kind: 'parsed', req, response, doc, kept } : { kind: 'parsed', req, response, doc }, localPath, bytes, result.renderedPath);
    });
  });
}

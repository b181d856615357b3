import type { OperatorFunction } from 'rxjs';
import type { Fetched, Outcome } from '../model/outcome.js';
import type { PageVisit } from '../model/page-visit.js';
import { passOutcomes } from './pass-outcomes.js';
import type { KnownPage } from '../state/crawl-state.js';
import type { MirrorStore } from '../store/mirror-store.js';

/**
 * On recrawl, turns a 304 Not Modified into the stored document: its body read back from the mirror
 * (so its links are still followed) and its record kept. A 304 for a page we hold no copy of fails,
 * unless `elsewhere` knows its last visit (a shared crawl: another repository of the crawl holds its
 * copy, or a newer one than ours): it is `revalidated`, unchanged, its record left where it is.
 *
 * @example
 * of(req).pipe(fetchPage(opts), reuseStored(known, store)) //=> { kind: 'fetched', kept: record, response: { status: 304, body: <stored> } }
 */
export function reuseStored(
  known: ReadonlyMap<string, KnownPage>,
  store: MirrorStore,
  elsewhere?: (url: string) => PageVisit | undefined,
): OperatorFunction<Fetched | Outcome, Fetched | Outcome> {
  return passOutcomes((value: Fetched): Fetched | Outcome | Promise<Fetched | Outcome> => {
    if (value.response.status !== 304) return value;
    const page = known.get(value.req.url);
    const visit = elsewhere?.(value.req.url);
    // Our copy is the one the validators were of only when its content is the last visit's.
    if (page === undefined || (visit !== undefined && visit.contentMd5 !== page.record.contentMd5)) {
      if (visit !== undefined) return { kind: 'revalidated', req: value.req, status: 304, visit: { ...visit, fetchedAt: Date.now() } };
      return { kind: 'failed', req: value.req, status: 304, code: 'unexpected-304', message: 'HTTP 304 for a page with no stored copy' };
    }
    return store.read(page.record.localPath).then(
      (body): Fetched => ({
          kind: 'fetched',
          req: value.req,
          kept: page.record,
          response: { ...value.response, body, headers: { ...value.response.headers, ...(page.contentType ? { 'content-type': page.contentType } : {}) } },
        }),
        (err: Error): Outcome => ({ kind: 'failed', req: value.req, status: 304, code: 'stored-copy-missing', message: `HTTP 304, but the stored copy cannot be read: ${err.message}` }),
    );
  });
}

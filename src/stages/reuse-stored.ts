import { from, mergeMap, of, type Observable, type OperatorFunction } from 'rxjs';
import type { UnitValue } from '../model/outcome.js';
import type { KnownPage } from '../state/crawl-state.js';
import type { MirrorStore } from '../store/mirror-store.js';

/**
 * On recrawl, turns a 304 Not Modified into the stored document: its body read back from the mirror
 * (so its links are still followed) and its record kept. A 304 for a page we hold no copy of fails.
 *
 * @example
 * of(req).pipe(fetchPage(opts), reuseStored(known, store)) //=> { kind: 'fetched', kept: record, response: { status: 304, body: <stored> } }
 */
export function reuseStored(known: ReadonlyMap<string, KnownPage>, store: MirrorStore): OperatorFunction<UnitValue, UnitValue> {
  return mergeMap((value): Observable<UnitValue> => {
    if (!('kind' in value) || value.kind !== 'fetched' || value.response.status !== 304) return of(value);
    const page = known.get(value.req.url);
    if (page === undefined) return of({ kind: 'failed', req: value.req, status: 304, code: 'unexpected-304', message: 'HTTP 304 for a page with no stored copy' });
    return from(
      store.read(page.record.localPath).then(
        (body): UnitValue => ({
          kind: 'fetched',
          req: value.req,
          kept: page.record,
          response: { ...value.response, body, headers: { ...value.response.headers, ...(page.contentType ? { 'content-type': page.contentType } : {}) } },
        }),
        (err: Error): UnitValue => ({ kind: 'failed', req: value.req, status: 304, code: 'stored-copy-missing', message: `HTTP 304, but the stored copy cannot be read: ${err.message}` }),
      ),
    );
  });
}

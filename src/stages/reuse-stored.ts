import type { OperatorFunction } from 'rxjs';
import type { Fetched, Outcome } from '../model/outcome.js';
import { passOutcomes } from './pass-outcomes.js';
import type { KnownPage } from '../state/crawl-state.js';
import type { MirrorStore } from '../store/mirror-store.js';

/**
 * On recrawl, turns a 304 Not Modified into the stored document: its body read back from the mirror
 * (so its links are still followed) and its record kept. A 304 for a page we hold no copy of fails.
 *
 * @example
 * of(req).pipe(fetchPage(opts), reuseStored(known, store)) //=> { kind: 'fetched', kept: record, response: { status: 304, body: <stored> } }
 */
export function reuseStored(known: ReadonlyMap<string, KnownPage>, store: MirrorStore): OperatorFunction<Fetched | Outcome, Fetched | Outcome> {
  return passOutcomes((value: Fetched): Fetched | Outcome | Promise<Fetched | Outcome> => {
    if (value.response.status !== 304) return value;
    const page = known.get(value.req.url);
    if (page === undefined) return { kind: 'failed', req: value.req, status: 304, code: 'unexpected-304', message: 'HTTP 304 for a page with no stored copy' };
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

import type { OperatorFunction } from 'rxjs';
import type { Outcome, Parsed } from '../model/outcome.js';
import { passOutcomes } from './pass-outcomes.js';
import type { IndexRecord } from '../model/index-record.js';
import type { MirrorStore } from '../store/mirror-store.js';
import { urlMd5 } from '../url/url-md5.js';
import { noRoom } from '../store/no-room.js';
import type { Writable } from '../model/writable.js';

/** Where the last crawl stored a URL's copy (its `localPath`), if it did: a recrawl replaces that copy. */
export type PreviousCopy = (url: string) => string | undefined;

/**
 * Writes a parsed document into the mirror and makes its index record (SPEC §6). Runs inside the
 * unit, so a slow disk holds the fetch slot instead of piling bodies up in memory. A noindex page is
 * stored and counted but kept out of the index (its record is kept, for recrawl). A document a
 * recrawl found unchanged keeps its stored copy and its record; one that changed replaces its copy
 * where `previous` says it is. A document the mirror cannot hold fails, as in
 * {@link describeAndStore}; a full disk errors the stream, which stops the crawl with the page still
 * pending.
 *
 * @example
 * of(parsed).pipe(storeDocument(store)) //=> { kind: 'document', record: { localPath: 'www.a.test/index.html', ... } }
 */
export function storeDocument(store: MirrorStore, previous?: PreviousCopy): OperatorFunction<Parsed | Outcome, Outcome> {
  return passOutcomes((value: Parsed): Outcome | Promise<Outcome> =>
    value.kept
      ? toDocument(value, value.kept.localPath)
      : store.save(new URL(value.req.url), value.doc.isHtml, value.response.body, previous?.(value.req.url)).then(
          (localPath) => toDocument(value, localPath),
          (err: NodeJS.ErrnoException): Outcome => {
            // On the main thread no pool's `full` stops the crawl: the error does, before the next page fails the same way.
            if (noRoom(err.code)) throw err;
            return { kind: 'failed', req: value.req, code: err.code ?? 'store-error', message: err.message };
          },
        ),
  );
}

/** The outcome of a parsed document stored at `localPath` (its rendered DOM at `renderedPath`), with its record (kept out of the index when noindex). */
export function toDocument(parsed: Parsed, localPath: string, bytes = parsed.response.body.length, renderedPath?: string): Outcome {
  const { req, response, doc, kept } = parsed;
  const h = response.headers;
  if (kept) return documentOutcome(parsed, doc.simhash === null ? { ...kept } : { ...kept, simhash: doc.simhash, nearDuplicateOf: doc.nearDuplicateOf }, bytes);
  const record: Writable<IndexRecord> = {
    md5: urlMd5(req.url),
    url: req.url,
    originalUrl: req.originalUrl,
    title: doc.title,
    encoding: doc.encoding,
    type: doc.type,
    lastModified: h['last-modified'] ?? null,
    serverDate: h['date'] ?? null,
    status: response.status,
    etag: h['etag'] ?? null,
    localPath,
    contentLength: bytes,
    contentMd5: doc.contentMd5,
    depth: req.depth,
    fetchedAt: new Date(response.startedAt).toISOString(),
    durationMs: response.durationMs,
    duplicateOf: doc.duplicateOf,
    links: doc.links,
  };
  if (doc.simhash !== null) {
    record.simhash = doc.simhash;
    record.nearDuplicateOf = doc.nearDuplicateOf;
  }
  if (response.truncated) record.truncated = true;
  if (req.sitemapLastmod !== undefined) record.sitemapLastmod = req.sitemapLastmod;
  if (renderedPath !== undefined) record.renderedPath = renderedPath;
  return documentOutcome(parsed, record, bytes);
}

/** A document's outcome around its record. */
function documentOutcome({ req, response, doc, kept }: Parsed, record: IndexRecord, bytes: number): Outcome {
  const h = response.headers;
  return {
    kind: 'document',
    req,
    status: response.status,
    record,
    indexed: !doc.noindex,
    contentType: h['content-type'] ?? null,
    unchanged: kept !== undefined,
    doc,
    bytes,
    truncated: response.truncated,
    durationMs: response.durationMs,
    links: doc.follow,
  };
}

import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexRecord } from '../model/index-record.js';
import type { Fetched, Outcome } from '../model/outcome.js';
import type { KnownPage } from '../state/crawl-state.js';
import { MirrorStore } from '../store/mirror-store.js';
import { reuseStored } from './reuse-stored.js';
import { storeDocument } from './store-document.js';
import { fetched, parsed, request } from '../../test/support/admission-values.js';
import { tempDir } from '../../test/support/temp-dir.js';

let repo: Awaited<ReturnType<typeof tempDir>>;
let store: MirrorStore;
beforeEach(async () => {
  repo = await tempDir('reuse-stored-');
  store = new MirrorStore(repo.dir);
});
afterEach(() => repo.remove());

/** The record of `html` as the last crawl stored it at http://a.test/`path` (storeDocument into the mirror). */
async function storedRecord(path: string, html: string): Promise<IndexRecord> {
  const out = await lastValueFrom(from([await parsed(fetched(`http://a.test/${path}`, html))]).pipe(storeDocument(store)));
  return (out as Extract<Outcome, { kind: 'document' }>).record;
}
const notModified = (path: string): Fetched => fetched(`http://a.test/${path}`, '', { etag: '"v2"' }, {}, 304);
const run = (known: ReadonlyMap<string, KnownPage>, ...values: (Fetched | Outcome)[]) => lastValueFrom(from(values).pipe(reuseStored(known, store), toArray()));

describe('reuseStored', () => {
  it('turns a 304 into the stored document, its body read back from the mirror and its record kept; the rest pass untouched', async () => {
    const record = await storedRecord('page.html', '<title>Kept</title><a href="/x">x</a>');
    const known = new Map([['http://a.test/page.html', { record, contentType: 'text/html; charset=iso-8859-1', indexed: true }]]);
    const changed = fetched('http://a.test/other.html', 'new');
    const skipped: Outcome = { kind: 'skipped', req: request('http://a.test/z'), reason: 'robots' };
    const [first, second, reused] = await run(known, changed, skipped, notModified('page.html'));
    expect(first).toBe(changed);
    expect(second).toBe(skipped);
    expect(reused).toEqual({
      kind: 'fetched',
      req: notModified('page.html').req,
      kept: record,
      response: { ...notModified('page.html').response, headers: { etag: '"v2"', 'content-type': 'text/html; charset=iso-8859-1' }, body: Buffer.from('<title>Kept</title><a href="/x">x</a>') },
    });
  });

  it('fails a 304 for a page it holds no copy of: not known, its file gone, or its path outside the repository', async () => {
    const record = await storedRecord('gone.html', 'gone');
    await repo.remove();
    const known = new Map<string, KnownPage>([
      ['http://a.test/gone.html', { record, contentType: null, indexed: true }],
      ['http://a.test/edited.html', { record: { ...record, localPath: '../../etc/passwd' }, contentType: null, indexed: true }],
    ]);
    // Each comes when its read has failed, not in the order they came: the unit runs one request at a time.
    const out = await run(known, notModified('unknown.html'), notModified('gone.html'), notModified('edited.html'));
    const byUrl = (a: { req: { url: string } }, b: { req: { url: string } }) => (a.req.url < b.req.url ? 1 : -1);
    expect(out.sort(byUrl)).toEqual([
      { kind: 'failed', req: notModified('unknown.html').req, status: 304, code: 'unexpected-304', message: 'HTTP 304 for a page with no stored copy' },
      { kind: 'failed', req: notModified('gone.html').req, status: 304, code: 'stored-copy-missing', message: expect.stringMatching(/^HTTP 304, but the stored copy cannot be read: ENOENT/) },
      { kind: 'failed', req: notModified('edited.html').req, status: 304, code: 'stored-copy-missing', message: 'HTTP 304, but the stored copy cannot be read: mirror: ../../etc/passwd is outside the repository' },
    ]);
  });
});

import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ContentSeen } from '../frontier/content-seen.js';
import { NearDuplicateIndex } from '../frontier/near-duplicate-index.js';
import type { Fetched, Outcome } from '../model/outcome.js';
import { MirrorStore } from '../store/mirror-store.js';
import { linkPolicy, type LinkPolicySource } from '../url/link-policy.js';
import { DocumentPool } from '../workers/document-pool.js';
import { describeAndStore } from './describe-and-store.js';
import { parseDocument } from './parse-document.js';
import { storeDocument } from './store-document.js';
import { fetched, reports, request } from '../../test/support/admission-values.js';
import { tempDir } from '../../test/support/temp-dir.js';

// The pool runs the built worker (dist/workers/document-worker.js): `npm test` builds first.
const policy: LinkPolicySource = { scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [['\\.tmp$', '']] };
const setup = (repository: string) => ({ repository, policy, agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0 });
const html = '<title>P</title><p>the page of a test, with words enough for a simhash</p><a href="q">Q</a><a href="x.tmp">T</a><a href="http://b.test/">B</a>';

let workers: Awaited<ReturnType<typeof tempDir>>;
let pool: DocumentPool;
beforeAll(async () => {
  workers = await tempDir('describe-and-store-');
  pool = new DocumentPool(setup(workers.dir), 1);
});
afterAll(async () => {
  await pool.close();
  await workers.remove();
});
let drops: ReturnType<typeof reports>;
beforeEach(() => {
  drops = reports();
});

const onWorkers = (values: (Fetched | Outcome)[], contentSeen = new ContentSeen(), usePool = pool) =>
  lastValueFrom(from(values).pipe(describeAndStore(usePool, contentSeen, drops.report, { index: new NearDuplicateIndex(3), skipLinks: false }), toArray()));

describe('describeAndStore', () => {
  it('gives the outcome, the record, the mirror copy and the reports that parseDocument then storeDocument give', async () => {
    const page = fetched('http://a.test/dir/p', html, { 'content-type': 'text/html', etag: '"e"' });
    const skipped: Outcome = { kind: 'skipped', req: request('http://a.test/z'), reason: 'robots' };
    const [passed, out] = await onWorkers([skipped, page]);
    expect(passed).toBe(skipped);

    const here = await tempDir('describe-and-store-here-');
    const mainThread = reports();
    const [expected] = await lastValueFrom(from([page]).pipe(
      parseDocument({ policy: linkPolicy(policy), agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0, contentSeen: new ContentSeen(), near: { index: new NearDuplicateIndex(3), skipLinks: false }, report: mainThread.report }),
      storeDocument(new MirrorStore(here.dir)),
      toArray(),
    ));
    expect(await readFile(join(here.dir, 'a.test/dir/p.html'), 'utf8')).toBe(html);
    await here.remove();

    expect(out).toEqual(expected);
    expect(out).toMatchObject({ kind: 'document', record: { localPath: 'a.test/dir/p.html', title: 'P', etag: '"e"' }, links: [{ url: 'http://a.test/dir/q', depth: 2 }] });
    expect(await readFile(join(workers.dir, 'a.test/dir/p.html'), 'utf8')).toBe(html);
    expect(drops.reported).toEqual(mainThread.reported);
    expect(drops.reported).toEqual([['rejected', 'http://a.test/dir/x.tmp'], ['out-of-scope', 'http://b.test/']]);
  });

  it('marks a copy of content seen under another URL a duplicate, whose links are not followed', async () => {
    const contentSeen = new ContentSeen();
    await onWorkers([fetched('http://a.test/first', html)], contentSeen);
    const [copy] = await onWorkers([fetched('http://a.test/copy', html)], contentSeen);
    expect(copy).toMatchObject({ kind: 'document', links: [], record: { duplicateOf: 'http://a.test/first', links: [{ url: 'http://a.test/q' }] } });
  });

  it('keeps the stored copy of a page a recrawl found unchanged: nothing written, the record kept', async () => {
    const kept = { url: 'http://a.test/kept', localPath: 'a.test/stored-before.html', title: 'Before' } as unknown as NonNullable<Fetched['kept']>;
    const [out] = await onWorkers([{ ...fetched('http://a.test/kept', html), kept }]);
    expect(out).toMatchObject({ kind: 'document', unchanged: true, record: { localPath: 'a.test/stored-before.html', title: 'Before' } });
    expect(await readdir(join(workers.dir, 'a.test'))).not.toContain('kept.html');
  });

  it('fails a page the mirror cannot hold, as store-error, and goes on with the next', async () => {
    const broken = await tempDir('describe-and-store-broken-');
    const notAFolder = join(broken.dir, 'repository');
    await writeFile(notAFolder, 'a file where the repository goes');
    const brokenPool = new DocumentPool(setup(notAFolder), 1);
    try {
      const pages = [fetched('http://a.test/1', '1'), fetched('http://a.test/2', '2')];
      const out = await onWorkers(pages, new ContentSeen(), brokenPool);
      const byUrl = (a: Outcome, b: Outcome) => (a.req.url < b.req.url ? -1 : 1);
      expect(out.sort(byUrl)).toEqual(pages.map((p) => ({ kind: 'failed', req: p.req, code: 'store-error', message: expect.stringContaining('mirror: cannot make folder a.test') })));
    } finally {
      await brokenPool.close();
      await broken.remove();
    }
  });
});

import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outcome, Parsed } from '../model/outcome.js';
import { MirrorStore } from '../store/mirror-store.js';
import { storeDocument } from './store-document.js';
import { fetched, parsed, request } from '../../test/support/admission-values.js';
import { tempDir } from '../../test/support/temp-dir.js';

let repo: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  repo = await tempDir('store-document-');
});
afterEach(() => repo.remove());

const store = (values: (Parsed | Outcome)[]) => lastValueFrom(from(values).pipe(storeDocument(new MirrorStore(repo.dir)), toArray()));
const headers = { 'content-type': 'text/html; charset=utf-8', 'last-modified': 'Mon, 30 Nov 2026 02:27:02 GMT', date: 'Mon, 30 Nov 2026 03:00:00 GMT', etag: '"v1"' };

describe('storeDocument', () => {
  it('writes a parsed page into the mirror and makes its index record; outcomes pass untouched', async () => {
    const html = '<title>Τίτλος</title><a href="/x">X</a>';
    const page = await parsed(fetched('http://a.test/dir/page.html', html, headers, { originalUrl: 'page.html', sitemapLastmod: '2026-11-01' }));
    const skipped: Outcome = { kind: 'skipped', req: request('http://a.test/q'), reason: 'robots' };
    const [passed, out] = await store([skipped, page]);
    expect(passed).toBe(skipped);
    expect(out).toEqual({
      kind: 'document', req: page.req, status: 200, indexed: true, contentType: 'text/html; charset=utf-8', unchanged: false,
      doc: page.doc, bytes: Buffer.byteLength(html), truncated: false, durationMs: 4, links: page.doc.follow,
      record: {
        md5: createHash('md5').update('http://a.test/dir/page.html').digest('hex'), url: 'http://a.test/dir/page.html', originalUrl: 'page.html',
        title: 'Τίτλος', encoding: 'utf-8', type: 'html', lastModified: 'Mon, 30 Nov 2026 02:27:02 GMT', serverDate: 'Mon, 30 Nov 2026 03:00:00 GMT',
        status: 200, etag: '"v1"', localPath: 'a.test/dir/page.html', contentLength: Buffer.byteLength(html), contentMd5: page.doc.contentMd5,
        depth: 1, fetchedAt: '2026-11-30T03:00:00.000Z', durationMs: 4, duplicateOf: null, simhash: page.doc.simhash, nearDuplicateOf: null,
        sitemapLastmod: '2026-11-01', links: [{ url: 'http://a.test/x', text: 'X' }],
      },
    });
    expect(await readFile(join(repo.dir, 'a.test/dir/page.html'), 'utf8')).toBe(html);
  });

  it('stores and counts a noindex page but keeps it out of the index; marks a body cut short', async () => {
    const page = await parsed(fetched('http://a.test/', '<meta name="robots" content="noindex"><title>N</title>'));
    const cut = { ...page, response: { ...page.response, truncated: true } };
    const [out] = await store([cut]);
    expect(out).toMatchObject({ kind: 'document', indexed: false, truncated: true, record: { localPath: 'a.test/index.html', title: 'N', truncated: true } });
    expect(await readFile(join(repo.dir, 'a.test/index.html'), 'utf8')).toContain('<title>N</title>');
  });

  it('keeps the stored copy and the record of a page a recrawl found unchanged, writing nothing', async () => {
    const kept = { md5: 'm', url: 'http://a.test/', localPath: 'a.test/kept.html', title: 'Old', fetchIntervalHours: 9 } as unknown as NonNullable<Parsed['kept']>;
    const page = { ...(await parsed(fetched('http://a.test/', '<title>Old</title>'))), kept };
    const [out] = await store([page]);
    expect(out).toMatchObject({ kind: 'document', unchanged: true, record: { ...kept, simhash: page.doc.simhash, nearDuplicateOf: null } });
    expect(await readdir(repo.dir)).toEqual([]);
  });

  it('fails a page the mirror cannot hold, as describeAndStore does, and goes on with the next', async () => {
    const notAFolder = join(repo.dir, 'repository');
    await writeFile(notAFolder, 'a file where the repository goes');
    const pages = [await parsed(fetched('http://a.test/1.html', '1')), await parsed(fetched('http://a.test/2.html', '2'))];
    const out = await lastValueFrom(from(pages).pipe(storeDocument(new MirrorStore(notAFolder)), toArray()));
    // The two saves run side by side, so their failures come in either order.
    out.sort((a, b) => a.req.url.localeCompare(b.req.url));
    expect(out).toEqual(pages.map((p) => ({ kind: 'failed', req: p.req, code: 'store-error', message: expect.stringContaining('mirror: cannot make folder a.test') })));
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, of } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fetched, Outcome } from '../model/outcome.js';
import { ContentSeen } from '../frontier/content-seen.js';
import { MirrorStore } from '../store/mirror-store.js';
import { linkPolicy } from '../url/link-policy.js';
import { parseDocument } from './parse-document.js';
import { storeDocument } from './store-document.js';

const fetched = (url: string, html: string): Fetched => ({
  kind: 'fetched',
  req: { url, host: new URL(url).host, depth: 1, originalUrl: 'page.html', redirects: 0, attempt: 0 },
  response: {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'last-modified': 'Mon, 30 Nov 2026 02:27:02 GMT', date: 'Mon, 30 Nov 2026 03:00:00 GMT', etag: '"v1"' },
    body: Buffer.from(html),
    truncated: false,
    startedAt: Date.parse('2026-11-30T03:00:00Z'),
    durationMs: 4,
  },
});

describe('parseDocument then storeDocument, on the main thread', () => {
  let repo: string;
  beforeEach(async () => {
    repo = await mkdtemp(join(tmpdir(), 'stages-'));
  });
  afterEach(() => rm(repo, { recursive: true, force: true }));

  it('turns a fetched page into a stored document with its index record; a copy elsewhere is a duplicate that follows nothing', async () => {
    const contentSeen = new ContentSeen();
    const dropped: string[] = [];
    const stages = [
      parseDocument({
        policy: linkPolicy({ scope: 'free-spanning', seeds: [], accept: [], reject: [] }),
        agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0, contentSeen,
        report: (reason) => dropped.push(reason),
      }),
      storeDocument(new MirrorStore(repo)),
    ] as const;
    const run = (f: Fetched) => firstValueFrom(of(f).pipe(...stages)) as Promise<Outcome>;
    const html = '<title>Τίτλος</title><a href="/x">X</a><a href="mailto:a@b">m</a>';

    const first = await run(fetched('http://a.test/dir/page.html', html));
    expect(first).toMatchObject({
      kind: 'document', status: 200, truncated: false, unchanged: false, contentType: 'text/html; charset=utf-8',
      links: [{ url: 'http://a.test/x', vetted: true, depth: 2 }],
      record: {
        md5: createHash('md5').update('http://a.test/dir/page.html').digest('hex'), url: 'http://a.test/dir/page.html',
        originalUrl: 'page.html', title: 'Τίτλος', encoding: 'utf-8', type: 'html', lastModified: 'Mon, 30 Nov 2026 02:27:02 GMT',
        serverDate: 'Mon, 30 Nov 2026 03:00:00 GMT', etag: '"v1"', localPath: 'a.test/dir/page.html', contentLength: Buffer.byteLength(html),
        depth: 1, fetchedAt: '2026-11-30T03:00:00.000Z', duplicateOf: null, links: [{ url: 'http://a.test/x', text: 'X' }],
      },
    });
    expect(await readFile(join(repo, 'a.test/dir/page.html'), 'utf8')).toBe(html);
    expect(dropped).toEqual(['unsupported-scheme']);

    const copy = await run(fetched('http://a.test/copy.html', html));
    expect(copy).toMatchObject({ kind: 'document', links: [], record: { duplicateOf: 'http://a.test/dir/page.html', links: [{ url: 'http://a.test/x', text: 'X' }] } });
  });
});

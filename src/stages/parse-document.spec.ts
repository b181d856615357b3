import { from, lastValueFrom, toArray } from 'rxjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContentSeen } from '../frontier/content-seen.js';
import { NearDuplicateIndex } from '../frontier/near-duplicate-index.js';
import type { Fetched, Outcome, Parsed } from '../model/outcome.js';
import { linkPolicy } from '../url/link-policy.js';
import { parseDocument, type NearDuplicates, type ParseDocumentOptions } from './parse-document.js';
import { fetched, reports, request } from '../../test/support/admission-values.js';

let drops: ReturnType<typeof reports>;
let contentSeen: ContentSeen;
beforeEach(() => {
  drops = reports();
  contentSeen = new ContentSeen();
});

const policy = linkPolicy({ scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [['\\.tmp$', '']] });
const options = (more: Partial<ParseDocumentOptions> = {}): ParseDocumentOptions => ({ policy, agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0, contentSeen, report: drops.report, ...more });
const parse = (values: (Fetched | Outcome)[], more: Partial<ParseDocumentOptions> = {}) => lastValueFrom(from(values).pipe(parseDocument(options(more)), toArray()));
const one = async (f: Fetched, more: Partial<ParseDocumentOptions> = {}) => (await parse([f], more))[0] as Parsed;

describe('parseDocument', () => {
  it('describes a fetched page: its title and links; those to follow are vetted candidates one level deeper; it reports the links it drops', async () => {
    const page = fetched('http://a.test/dir/page.html', '<title>Τίτλος</title><a href="/x">X</a><a href="mailto:a@b">m</a><a href="y.tmp">T</a><a href="http://b.test/">B</a><a href="/z" rel="nofollow">N</a><a href="/x">again</a>', undefined, { depth: 2 });
    const skipped: Outcome = { kind: 'skipped', req: request('http://a.test/q'), reason: 'robots' };
    const [passed, out] = await parse([skipped, page]);
    expect(passed).toBe(skipped);
    expect(out).toEqual({
      kind: 'parsed', req: page.req, response: page.response,
      doc: expect.objectContaining({
        type: 'html', isHtml: true, encoding: 'utf-8', title: 'Τίτλος', noindex: false, nofollow: false, duplicateOf: null, nearDuplicateOf: null, linksCut: 0,
        links: [{ url: 'http://a.test/x', text: 'X' }],
        follow: [{ href: '/x', url: 'http://a.test/x', vetted: true, base: 'http://a.test/dir/page.html', depth: 3 }],
      }),
    });
    expect(drops.reported).toEqual([
      ['unsupported-scheme', 'mailto:a@b'],
      ['rejected', 'http://a.test/dir/y.tmp'],
      ['out-of-scope', 'http://b.test/'],
      ['nofollow', '/z'],
    ]);
  });

  it('marks a body seen before under another URL a duplicate of it: its links listed, none followed; the same URL again is no duplicate', async () => {
    const html = '<title>Same</title><a href="/x">X</a>';
    await one(fetched('http://a.test/first', html));
    const copy = await one(fetched('http://a.test/copy', html));
    expect(copy.doc).toMatchObject({ duplicateOf: 'http://a.test/first', links: [{ url: 'http://a.test/x', text: 'X' }], follow: [] });
    const again = await one(fetched('http://a.test/first', html));
    expect(again.doc).toMatchObject({ duplicateOf: null, follow: [{ url: 'http://a.test/x' }] });
  });

  it('marks a page near an earlier one a near-duplicate; its links are followed unless near.skipLinks', async () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const page = (path: string, last: string) => fetched(`http://a.test/${path}`, `<title>T</title><p>${words} ${last}</p><a href="/${path}/next">n</a>`);
    const near = (skipLinks: boolean): NearDuplicates => ({ index: new NearDuplicateIndex(3), skipLinks });
    const following = near(false);
    expect((await one(page('one', 'alpha'), { near: following })).doc).toMatchObject({ nearDuplicateOf: null });
    expect((await one(page('two', 'beta'), { near: following })).doc).toMatchObject({ nearDuplicateOf: 'http://a.test/one', duplicateOf: null, follow: [{ url: 'http://a.test/two/next' }] });
    contentSeen = new ContentSeen();
    const skipping = near(true);
    await one(page('one', 'alpha'), { near: skipping });
    expect((await one(page('two', 'beta'), { near: skipping })).doc).toMatchObject({ nearDuplicateOf: 'http://a.test/one', links: [{ url: 'http://a.test/two/next' }], follow: [] });
  });

  it('follows nothing from a page whose robots meta tag or X-Robots-Tag says nofollow for its agent, and keeps noindex', async () => {
    const meta = await one(fetched('http://a.test/m', '<meta name="tarantula" content="noindex, nofollow"><a href="/x">X</a>'));
    expect(meta.doc).toMatchObject({ noindex: true, nofollow: true, follow: [] });
    const other = await one(fetched('http://a.test/o', '<meta name="otherbot" content="nofollow"><a href="/x">X</a>'));
    expect(other.doc).toMatchObject({ nofollow: false, follow: [{ url: 'http://a.test/x' }] });
    const header = await one(fetched('http://a.test/h', '<a href="/x">X</a>', { 'content-type': 'text/html', 'x-robots-tag': 'tarantula: nofollow' }));
    expect(header.doc).toMatchObject({ nofollow: true, follow: [] });
  });

  it('takes at most max-links-per-page distinct links, counting the rest as cut', async () => {
    const out = await one(fetched('http://a.test/', '<a href="/1">1</a><a href="/1">1</a><a href="/2">2</a><a href="/3">3</a><a href="/4">4</a>'), { maxLinksPerPage: 2 });
    expect(out.doc).toMatchObject({ linksCut: 2, follow: [{ url: 'http://a.test/1' }, { url: 'http://a.test/2' }] });
    expect(drops.reported).toEqual([['too-many-links', '/3'], ['too-many-links', '/4']]);
  });

  it('passes on the record a recrawl kept', async () => {
    const page = { ...fetched('http://a.test/', '<title>K</title>'), kept: { url: 'http://a.test/', localPath: 'a.test/index.html' } as Parsed['kept'] };
    expect(await one(page)).toMatchObject({ kind: 'parsed', kept: page.kept, doc: { title: 'K' } });
  });
});

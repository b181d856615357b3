import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Fetched, Outcome } from '../model/outcome.js';
import { MAX_SITEMAP_NESTING, readSitemaps } from './read-sitemaps.js';
import { fetched, request } from '../../test/support/admission-values.js';

const xml = { 'content-type': 'application/xml' };
const urlset = '<urlset><url><loc>http://a.test/x</loc><lastmod>2026-01-02</lastmod></url><url><loc>/y</loc></url></urlset>';
const index = '<sitemapindex><sitemap><loc>http://a.test/s1.xml</loc></sitemap><sitemap><loc>http://a.test/s2.xml.gz</loc></sitemap></sitemapindex>';
const read = (...values: (Fetched | Outcome)[]) => lastValueFrom(from(values).pipe(readSitemaps(), toArray()));

describe('readSitemaps', () => {
  it('lets pages and outcomes by untouched, and makes a sitemap\'s URLs links one level deeper, with their lastmod', async () => {
    const page = fetched('http://a.test/', '<urlset><url><loc>http://a.test/not-read</loc></url></urlset>');
    const skipped: Outcome = { kind: 'skipped', req: request('http://a.test/z'), reason: 'robots' };
    const sitemap = fetched('http://a.test/sitemap.xml', urlset, xml, { depth: 2, sitemap: 0 });
    const out = await read(page, skipped, sitemap);
    expect(out[0]).toBe(page);
    expect(out[1]).toBe(skipped);
    expect(out[2]).toEqual({
      kind: 'sitemap', req: sitemap.req, status: 200, urls: 2, sitemaps: 0,
      links: [
        { href: 'http://a.test/x', base: 'http://a.test/sitemap.xml', depth: 3, sitemapLastmod: '2026-01-02' },
        { href: '/y', base: 'http://a.test/sitemap.xml', depth: 3 },
      ],
    });
    expect(out).toHaveLength(3);
  });

  it('makes the sitemaps of an index sitemap requests at the index\'s own depth, one nesting level down', async () => {
    const [out] = await read(fetched('http://a.test/sitemap.xml', index, xml, { depth: 0, sitemap: 0 }));
    expect(out).toEqual({
      kind: 'sitemap', req: expect.objectContaining({ url: 'http://a.test/sitemap.xml' }), status: 200, urls: 0, sitemaps: 2,
      links: [
        { href: 'http://a.test/s1.xml', base: 'http://a.test/sitemap.xml', depth: 0, sitemap: 1 },
        { href: 'http://a.test/s2.xml.gz', base: 'http://a.test/sitemap.xml', depth: 0, sitemap: 1 },
      ],
    });
  });

  it(`follows indexes down to ${MAX_SITEMAP_NESTING} levels, and says how many sitemaps it left unread below`, async () => {
    const [last] = await read(fetched('http://a.test/s.xml', index, xml, { sitemap: MAX_SITEMAP_NESTING - 1 }));
    expect(last).toMatchObject({ kind: 'sitemap', links: [{ sitemap: MAX_SITEMAP_NESTING }, { sitemap: MAX_SITEMAP_NESTING }] });
    expect(last).not.toHaveProperty('cut');
    const [below] = await read(fetched('http://a.test/s.xml', index, xml, { sitemap: MAX_SITEMAP_NESTING }));
    expect(below).toMatchObject({ kind: 'sitemap', urls: 0, sitemaps: 2, links: [], cut: `sitemap indexes nested deeper than ${MAX_SITEMAP_NESTING}: 2 sitemaps not read` });
  });

  it('reads a plain-text sitemap, a URL a line', async () => {
    const [text] = await read(fetched('http://a.test/sitemap.txt', 'http://a.test/1\nhttp://a.test/2\n', { 'content-type': 'text/plain' }, { sitemap: 0 }));
    expect(text).toMatchObject({ kind: 'sitemap', urls: 2, links: [{ href: 'http://a.test/1' }, { href: 'http://a.test/2' }] });
    expect(text).not.toHaveProperty('cut');
  });
});

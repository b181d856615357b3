import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readSitemap, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from './read-sitemap.js';

// Cases modelled on crawler-commons' SiteMapParserTest (its fixtures are not copied: these are written here).
const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://www.example.com/</loc><lastmod>2005-01-01</lastmod><changefreq>monthly</changefreq><priority>0.8</priority></url>
  <url><loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc><changefreq>weekly</changefreq></url>
  <url><loc>
      http://www.example.com/catalog?item=73&amp;desc=vacation_new_zealand
    </loc><lastmod>2004-12-23T18:00:15+00:00</lastmod></url>
  <url><loc>http://www.example.com/catalog?item=74</loc><lastmod>yesterday</lastmod></url>
  <url><loc><![CDATA[http://www.example.com/cdata]]></loc></url>
</urlset>`;

const INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>http://www.example.com/sitemap1.xml.gz</loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap>
  <sitemap><loc>http://www.example.com/sitemap2.xml.gz</loc></sitemap>
</sitemapindex>`;

const read = (text: string | Buffer) => readSitemap(typeof text === 'string' ? Buffer.from(text) : text);

describe('readSitemap', () => {
  it('reads a urlset: locations trimmed, entities and CDATA decoded, a lastmod kept only when it is a W3C datetime', async () => {
    expect(await read(URLSET)).toEqual({
      urls: [
        { loc: 'http://www.example.com/', lastmod: '2005-01-01' },
        { loc: 'http://www.example.com/catalog?item=12&desc=vacation_hawaii' },
        { loc: 'http://www.example.com/catalog?item=73&desc=vacation_new_zealand', lastmod: '2004-12-23T18:00:15+00:00' },
        { loc: 'http://www.example.com/catalog?item=74' },
        { loc: 'http://www.example.com/cdata' },
      ],
      sitemaps: [],
    });
  });

  it('reads a sitemap index', async () => {
    expect(await read(INDEX)).toEqual({ urls: [], sitemaps: ['http://www.example.com/sitemap1.xml.gz', 'http://www.example.com/sitemap2.xml.gz'] });
  });

  it('reads a text sitemap, one URL a line, skipping what is not an http(s) URL', async () => {
    const text = 'http://www.example.com/catalog?item=1\r\n\n  https://www.example.com/b  \nnot a url\nftp://x.test/f\nhttp://www.example.com/c';
    expect((await read(text)).urls.map((u) => u.loc)).toEqual(['http://www.example.com/catalog?item=1', 'https://www.example.com/b', 'http://www.example.com/c']);
  });

  it('tells gzip by its magic bytes, whatever the name or Content-Type said', async () => {
    expect(await read(gzipSync(URLSET))).toEqual(await read(URLSET));
    expect((await read(gzipSync('http://a.test/1\nhttp://a.test/2'))).urls).toHaveLength(2);
  });

  it('skips a UTF-8 byte order mark, before XML or text', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect((await read(Buffer.concat([bom, Buffer.from(URLSET)]))).urls).toHaveLength(5);
    expect((await read(Buffer.concat([bom, Buffer.from('http://a.test/x')]))).urls).toEqual([{ loc: 'http://a.test/x' }]);
  });

  it('keeps the entries of broken XML around the break, and those of a file cut short (partial download)', async () => {
    const broken = '<urlset><url><loc>http://a.test/1</loc></url><url><loc>http://a.test/2</loc></ur l><<>&&; <url><loc>http://a.test/3</loc></url></urlset>';
    expect((await read(broken)).urls.map((u) => u.loc)).toEqual(expect.arrayContaining(['http://a.test/1', 'http://a.test/3']));
    const partial = URLSET.slice(0, URLSET.indexOf('item=74'));
    expect((await read(partial)).urls.map((u) => u.loc)).toEqual([
      'http://www.example.com/',
      'http://www.example.com/catalog?item=12&desc=vacation_hawaii',
      'http://www.example.com/catalog?item=73&desc=vacation_new_zealand',
    ]);
    const thousand = `<urlset>${Array.from({ length: 1000 }, (_, i) => `<url><loc>http://a.test/p${i}</loc></url>\n`).join('')}</urlset>`;
    const zipped = gzipSync(thousand);
    const half = (await read(zipped.subarray(0, Math.floor(zipped.length / 2)))).urls;
    expect(half.length).toBeGreaterThan(100);
    expect(half.length).toBeLessThan(1000);
    expect(half).toEqual(Array.from({ length: half.length }, (_, i) => ({ loc: `http://a.test/p${i}` })));
  });

  it('expands no entity: a billion-laughs sitemap stays the few bytes it is', async () => {
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE urlset [\n<!ENTITY lol0 "lol">\n${lol}\n<!ENTITY ext SYSTEM "file:///etc/passwd">\n]>\n<urlset><url><loc>http://a.test/&lol9;</loc></url><url><loc>http://a.test/&ext;</loc></url></urlset>`;
    const { urls } = await read(bomb);
    expect(urls.map((u) => u.loc)).toEqual(['http://a.test/&lol9;', 'http://a.test/&ext;']);
  });

  it(`takes at most ${SITEMAP_MAX_URLS} URLs from one file and says it was cut`, async () => {
    const many = Array.from({ length: 60_000 }, (_, i) => `<url><loc>http://a.test/p${i}</loc></url>`).join('');
    const got = await read(`<urlset>${many}</urlset>`);
    expect(got.urls).toHaveLength(SITEMAP_MAX_URLS);
    expect(got.urls.at(-1)).toEqual({ loc: `http://a.test/p${SITEMAP_MAX_URLS - 1}` });
    expect(got.cut).toBe(`more than ${SITEMAP_MAX_URLS} URLs`);
    const text = await read(Array.from({ length: 60_000 }, (_, i) => `http://a.test/p${i}`).join('\n'));
    expect(text.urls).toHaveLength(SITEMAP_MAX_URLS);
  });

  it('decodes at most 50 MiB of a gzip sitemap, however much more it would inflate to', async () => {
    const line = 'http://a.test/' + 'x'.repeat(1985) + '\n'; // 2000 bytes
    const bomb = gzipSync(Buffer.from(line.repeat(30 * 1024))); // 60 MiB of text, a few hundred KB zipped
    const got = await read(bomb);
    expect(got.cut).toBe(`more than ${SITEMAP_MAX_BYTES} bytes decoded`);
    expect(got.urls).toHaveLength(Math.floor(SITEMAP_MAX_BYTES / 2000)); // the line cut at the limit is not taken
    expect(got.urls.every((u) => u.loc.length === 1999)).toBe(true);
  });
});

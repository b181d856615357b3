import { createHash } from 'node:crypto';
import { resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mirrorPath } from './mirror-path.js';

const md8 = (s: string): string => createHash('md5').update(s).digest('hex').slice(0, 8);

describe('mirrorPath maps URLs as SPEC §6 describes', () => {
  it.each([
    ['http://www.ics.forth.gr/index.html', true, ['www.ics.forth.gr', 'index.html']],
    ['http://www.ics.forth.gr/', true, ['www.ics.forth.gr', 'index.html']],
    ['http://h/docs/', false, ['h', 'docs', 'index.html']],
    ['http://h:8080/a/b.pdf', false, ['h+8080', 'a', 'b.pdf']],
    ['https://h:443/x.html', true, ['h', 'x.html']],
    ['http://h/news', true, ['h', 'news.html']],
    ['http://h/news', false, ['h', 'news']],
    ['http://h/x.php', true, ['h', 'x.php.html']],
    ['http://h/X.HTM', true, ['h', 'X.HTM']],
    ['http://h/p?x=1', true, ['h', 'p%3Fx=1.html']],
    ['http://h/p.html?x=1', true, ['h', 'p.html%3Fx=1.html']],
    ['http://h/dir/?x=1', true, ['h', 'dir', 'index.html%3Fx=1.html']],
    ['http://h/f.pdf?a=b/c', false, ['h', 'f.pdf%3Fa=b%2Fc']],
    ['http://h/a%20b/%C3%A9.html', true, ['h', 'a%20b', '%C3%A9.html']],
    ['http://h/caf\u00e9', false, ['h', 'caf%C3%A9']],
    ['http://a+b:81/', true, ['a%2Bb+81', 'index.html']],
    ['http://h/~user/', true, ['h', '~user', 'index.html']],
  ])('%s (html: %s) -> %j', (url, html, expected) => {
    expect(mirrorPath(new URL(url), html)).toEqual(expected);
  });

  it('escapes characters Windows refuses instead of writing them raw', () => {
    expect(mirrorPath(new URL('http://[::1]:8080/C:/a|b*c'), false)).toEqual(['[%3A%3A1]+8080', 'C%3A', 'a%7Cb%2Ac']);
  });

  it('keeps percent-escapes as they are, never decoding them into separators or dots', () => {
    expect(mirrorPath(new URL('http://h/..%2F..%2Fetc/%2e%2e%5Cx'), false)).toEqual(['h', '..%2F..%2Fetc', '%2e%2e%5Cx']);
    expect(mirrorPath(new URL('http://h/a%00b'), false)).toEqual(['h', 'a%00b']);
  });

  it('repairs names that are not plain file names with escaped unreserved characters', () => {
    expect(mirrorPath(new URL('http://../a./b'), false)).toEqual(['%2E%2E', 'a%2E', 'b']);
    expect(mirrorPath(new URL('http://h/x.'), true)).toEqual(['h', 'x%2E.html']);
    expect(mirrorPath(new URL('http://h//a'), false)).toEqual(['h', '%5F', 'a']);
    expect(mirrorPath(new URL('http://h/con/NUL.txt'), false)).toEqual(['h', '%63on', '%4EUL.txt']);
    expect(mirrorPath(new URL('http://h/com1'), true)).toEqual(['h', '%63om1.html']);
    expect(mirrorPath(new URL('http://con/'), true)).toEqual(['%63on', 'index.html']);
    expect(mirrorPath(new URL('http://h/console'), false)).toEqual(['h', 'console']);
  });

  it("escapes the first character of a host folder that would take a name of the crawl's own files", () => {
    expect(mirrorPath(new URL('http://.tarantula/journal.jsonl'), false)).toEqual(['%2Etarantula', 'journal.jsonl']);
    expect(mirrorPath(new URL('http://.git/config'), false)).toEqual(['%2Egit', 'config']);
    expect(mirrorPath(new URL('http://stats.json/'), true)).toEqual(['%73tats.json', 'index.html']);
    expect(mirrorPath(new URL('http://index.txt/'), false)).toEqual(['%69ndex.txt', 'index.html']);
    expect(mirrorPath(new URL('http://report.html.1234.tmp/x'), false)).toEqual(['%72eport.html.1234.tmp', 'x']);
    expect(mirrorPath(new URL('http://stats.json:8080/'), true)).toEqual(['stats.json+8080', 'index.html']);
    expect(mirrorPath(new URL('http://statistics.json/'), true)).toEqual(['statistics.json', 'index.html']);
    expect(mirrorPath(new URL('http://crawl-00000.warc.gz/'), true, ['crawl'])).toEqual(['%63rawl-00000.warc.gz', 'index.html']);
    expect(mirrorPath(new URL('http://crawler/'), true, ['crawl'])).toEqual(['crawler', 'index.html']);
  });

  it('cuts long names deterministically, keeping them distinct and their extension', () => {
    const long = 'a'.repeat(300);
    const [, name] = mirrorPath(new URL(`http://h/${long}.pdf`), false);
    expect(name).toBe('a'.repeat(240 - 9 - 4) + '~' + md8(long + '.pdf') + '.pdf');
    const [, other] = mirrorPath(new URL(`http://h/${long}b.pdf`), false);
    expect(other).not.toBe(name);
    const [, html] = mirrorPath(new URL(`http://h/${long}`), true);
    expect(html).toMatch(/^a+~[0-9a-f]{8}\.html$/);
  });

  it('does not split a percent-escape when cutting', () => {
    const [, name] = mirrorPath(new URL(`http://h/${'\u00e9'.repeat(100)}`), false);
    expect(name).toMatch(/^(%C3%A9)+(%C3)?~[0-9a-f]{8}$/);
  });

  it('gives absurdly deep URLs a file named after their MD5 within the path budget', () => {
    const url = new URL(`http://h/${'abcdefghij/'.repeat(200)}x`);
    const segs = mirrorPath(url, true);
    expect(segs.join('/').length).toBeLessThanOrEqual(1024);
    expect(segs[0]).toBe('h');
    expect(segs.at(-1)).toBe(`~${createHash('md5').update(url.href).digest('hex')}.html`);
  });
});

/** Deterministic generator of hostile paths, so a failure reproduces. */
function* hostilePaths(count: number): Generator<string> {
  const atoms = ['.', '..', '%2e', '%2E%2E', '%2f', '%5c', '\\', '/', '//', '%00', '\u0001', '\u007f', 'con', 'aux.', 'lpt9',
    ' ', '~', '?', '#', ':', '|', '"', '*', '<', '>', '\u00e9', '\ud83d\ude00', 'a'.repeat(120), '%', 'index.html'];
  let seed = 42;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < count; i++) {
    let path = '/';
    for (let k = next(12) + 1; k > 0; k--) path += atoms[next(atoms.length)];
    yield path;
  }
}

describe('mirrorPath never leaves the repository, whatever the URL holds', () => {
  const repo = resolve('/srv/repo');
  const attacks = [
    'http://h/../../etc/passwd', 'http://h/%2e%2e/%2e%2e/etc/passwd', 'http://h/..%2f..%2fetc%2fpasswd',
    'http://h/a/..\\..\\b', 'http://../..', 'http://h/%00/%0a', 'http://h/ /', `http://h/${'x'.repeat(5000)}`,
    `http://h/${'../'.repeat(50)}x?${'../'.repeat(50)}`, 'http://h/?/../../x', 'http://[::1]/', 'http://h:65535/...',
  ];
  const urls = [...attacks, ...[...hostilePaths(2000)].map((p) => 'http://h' + p)];

  it.each([true, false])('keeps %s-HTML documents under the repository, as plain portable names', (html) => {
    for (const href of urls) {
      const url = new URL(href);
      const segs = mirrorPath(url, html);
      expect(mirrorPath(url, html)).toEqual(segs);
      expect(resolve(repo, ...segs).startsWith(repo + sep)).toBe(true);
      expect(segs.join('/').length).toBeLessThanOrEqual(1024);
      for (const seg of segs) {
        expect(seg).not.toMatch(/^$|^\.\.?$|[\x00-\x20/\\:*?"<>|#\x7f-\uffff]|[. ]$/);
        expect(Buffer.byteLength(seg)).toBeLessThanOrEqual(255 - 9);
        expect(seg.split('.')[0]).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/i);
      }
    }
  });

  it('maps distinct hostile URLs to distinct paths', () => {
    const seen = new Map<string, string>();
    for (const href of urls) {
      const url = new URL(href);
      url.hash = ''; // a normalized URL has none
      const key = mirrorPath(url, false).join('/');
      const before = seen.get(key);
      if (before !== undefined) expect(before).toBe(url.href);
      seen.set(key, url.href);
    }
  });
});

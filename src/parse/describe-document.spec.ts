import { describe, expect, it } from 'vitest';
import type { FilterReason } from '../model/filter-reason.js';
import { describeDocument, type DescribeOptions } from './describe-document.js';

const enc = (s: string) => new TextEncoder().encode(s);
const options: DescribeOptions = {
  check: (_raw, url) => (url.startsWith('http://a.test/') ? undefined : 'out-of-scope'),
  agent: 'tarantula',
  obeyRelNofollow: true,
  maxLinksPerPage: 0,
};

function run(html: string, opts: Partial<DescribeOptions> = {}, headers: { contentType?: string; xRobotsTag?: string } = {}) {
  const dropped: [FilterReason, string][] = [];
  const d = describeDocument(
    { url: 'http://a.test/dir/page.html', contentType: headers.contentType ?? 'text/html', xRobotsTag: headers.xRobotsTag, body: enc(html) },
    { ...options, ...opts },
    (reason, url) => dropped.push([reason, url]),
  );
  return { d, dropped };
}

describe('describeDocument', () => {
  it('lists links normalized, once each, in document order, with the first anchor text', () => {
    const { d, dropped } = run(
      '<title> The  page </title><a href="b.html#x">B <img alt="logo"></a><a href="../c">C</a><a href="b.html">again</a>' +
        '<a href="http://other.test/">away</a><a href="mailto:x@a.test">mail</a><a href="" >self</a><a rel="nofollow" href="d">D</a>',
    );
    expect(d.title).toBe('The page');
    expect(d.links).toEqual([
      { url: 'http://a.test/dir/b.html', text: 'B logo', href: 'b.html#x' },
      { url: 'http://a.test/c', text: 'C', href: '../c' },
    ]);
    expect(dropped).toEqual([
      ['out-of-scope', 'http://other.test/'],
      ['unsupported-scheme', 'mailto:x@a.test'],
      ['duplicate', 'http://a.test/dir/page.html'],
      ['nofollow', 'd'],
    ]);
  });

  it('resolves links against <base href>', () => {
    expect(run('<base href="/x/"><a href="y">Y</a>').d.links.map((l) => l.url)).toEqual(['http://a.test/x/y']);
  });

  it('takes rel=nofollow links when told not to obey it, and stops at max-links-per-page', () => {
    const html = '<a rel="nofollow" href="1">1</a><a href="2">2</a><a href="3">3</a>';
    expect(run(html, { obeyRelNofollow: false, maxLinksPerPage: 2 }).d.links.map((l) => l.href)).toEqual(['1', '2']);
  });

  it('obeys meta robots and X-Robots-Tag', () => {
    const meta = run('<meta name="robots" content="noindex, nofollow"><a href="b">B</a>').d;
    expect([meta.noindex, meta.nofollow, meta.links]).toEqual([true, true, []]);
    const header = run('<a href="b">B</a>', {}, { xRobotsTag: 'tarantula: noindex' }).d;
    expect([header.noindex, header.nofollow, header.links.length]).toEqual([true, false, 1]);
  });

  it('describes binary and text documents without parsing them as HTML', () => {
    const pdf = run('%PDF-1.4 <a href="x">', {}, { contentType: 'application/pdf' }).d;
    expect([pdf.type, pdf.encoding, pdf.title, pdf.links]).toEqual(['pdf', null, null, []]);
    const txt = run('plain <a href="x">', {}, { contentType: 'text/plain; charset=iso-8859-7' }).d;
    expect([txt.type, txt.encoding, txt.links]).toEqual(['txt', 'iso-8859-7', []]);
    expect(txt.contentMd5).toMatch(/^[0-9a-f]{32}$/);
  });
});

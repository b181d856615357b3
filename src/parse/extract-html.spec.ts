import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collapseWhitespace, extractHtml, type ExtractedLink } from './extract-html.js';

const links = (html: string) => extractHtml(html).links.map((l) => [l.tag, l.href, l.text] as const);
const link = (href: string, text = '', tag: ExtractedLink['tag'] = 'a', nofollow = false): ExtractedLink => ({ href, text, nofollow, tag });

describe('extractHtml', () => {
  it('reads the first title, entities decoded and whitespace collapsed, and ignores SVG titles', () => {
    const { title } = extractHtml('<svg><title>Icon</title></svg><title>\n  Caf&eacute;\t &amp;\n Bar </title><title>Second</title>');
    expect(title).toBe('Café & Bar');
    expect(extractHtml('<p>no title</p>').title).toBeUndefined();
    expect(extractHtml('<title> </title>').title).toBe('');
  });

  it('reads the first base href, trimmed', () => {
    expect(extractHtml('<base target=_top><base href=" /docs/ "><base href="/other/">').baseHref).toBe('/docs/');
    expect(extractHtml('<a href=x>x</a>').baseHref).toBeUndefined();
  });

  it('lists links from a, area, frame, iframe and meta refresh in document order', () => {
    const html = `<meta http-equiv="refresh" content="10; url=/moved.html">
      <a href="/a.html">A</a><map><area href="/area.html" alt=" Map  area "><area nohref alt=x></map>
      <iframe src="/frame.html">fallback</iframe><frameset><frame src="/f.html"></frameset><a>no href</a>`;
    expect(extractHtml(html).links).toEqual([
      link('/moved.html', '', 'meta'), link('/a.html', 'A'), link('/area.html', 'Map area', 'area'),
      link('/frame.html', '', 'iframe'), link('/f.html', '', 'frame'),
    ]);
  });

  it('takes anchor text with image alts in place and whitespace collapsed', () => {
    expect(links('<a href=1>\n Go <img src=i.png alt="to the">\n\t<b>home</b>&nbsp;page </a>')).toEqual([['a', '1', 'Go to the home page']]);
    expect(links('<a href=2><img src=logo.png alt="Logo"></a><a href=3><img src=x.png></a>')).toEqual([['a', '2', 'Logo'], ['a', '3', '']]);
    expect(links('<a href=4>line<br>break</a><a href=5><div>one</div><div>two</div></a>')).toEqual([['a', '4', 'line break'], ['a', '5', 'one two']]);
  });

  it('keeps the href as written: entities decoded, trimmed, not resolved', () => {
    expect(links('<a href=" /list?a=1&amp;b=2#frag ">x</a><a href="../up.html">y</a><a href="">z</a>')).toEqual([
      ['a', '/list?a=1&b=2#frag', 'x'], ['a', '../up.html', 'y'], ['a', '', 'z'],
    ]);
  });

  it('marks rel=nofollow on a and area', () => {
    const found = extractHtml('<a href=1 rel="external NoFollow">x</a><a href=2 rel="nofollower">y</a><area href=3 rel=nofollow>');
    expect(found.links.map((l) => l.nofollow)).toEqual([true, false, true]);
  });

  it('takes nothing from scripts, styles, templates or comments', () => {
    const html = `<script>var s = '<a href="script.html">x</a>';</script><style>a[href="style.html"]{}</style>
      <!-- <a href="comment.html">c</a> --><template><a href="template.html">t</a></template>
      <a href="ok.html">ok<script>document.write('<a href=w.html>')</script></a>`;
    expect(links(html)).toEqual([['a', 'ok.html', 'ok']]);
  });

  it('takes links inside noscript, since a crawler runs no scripts', () => {
    expect(links('<noscript><a href="static.html">static</a></noscript>')).toEqual([['a', 'static.html', 'static']]);
  });

  it('ends an open anchor where a new one starts, even with elements between', () => {
    expect(links('<a href=1>one <b>bold <a href=2>two</a> three</b> four</a>')).toEqual([['a', '1', 'one bold'], ['a', '2', 'two']]);
  });

  it('lets an anchor left open collect text until an end tag or the document closes it', () => {
    // A browser would re-open the anchor inside the second paragraph as a copy of the link.
    expect(links('<p><a href=1>unclosed<p>para')).toEqual([['a', '1', 'unclosed para']]);
    expect(links('<ul><li><a href=1>item</ul><p>after')).toEqual([['a', '1', 'item']]);
  });

  it('reads meta robots, and meta for the agent when one is given', () => {
    const html = '<meta name="ROBOTS" content="NOINDEX"><meta name="Tarantula" content="nofollow"><meta name="googlebot" content="none">';
    expect(extractHtml(html).metaRobots).toEqual({ noindex: true, nofollow: false });
    expect(extractHtml(html, { agent: 'tarantula' }).metaRobots).toEqual({ noindex: true, nofollow: true });
    expect(extractHtml('<p>x</p>').metaRobots).toEqual({ noindex: false, nofollow: false });
  });
});

describe('collapseWhitespace', () => {
  it('turns every run of whitespace, no-break spaces included, into one space', () => {
    expect(collapseWhitespace('\n a\u00a0\u00a0b\t\r\nc \u3000')).toBe('a b c');
  });
});

// The expected lists are what a conforming HTML parser (html5lib, checked by hand) finds, except
// where a comment says otherwise.
describe('extractHtml on malformed pages', () => {
  const page = (name: string) => extractHtml(readFileSync(new URL(`../../fixtures/pages/malformed/${name}`, import.meta.url), 'utf8'));
  const texts = (name: string) => page(name).links.map((l) => `${l.href} ${l.text}`);

  it('unclosed-tags.html: implied ends of li, p, td and a', () => {
    // html5lib also re-opens the unclosed archive anchor inside the next two paragraphs (the
    // "active formatting elements"), repeating that link; the first occurrence is the same.
    expect(page('unclosed-tags.html').title).toBe('Department news');
    expect(texts('unclosed-tags.html')).toEqual([
      '/news/2024/ News 2024', '/news/2023/ News 2023', '/news/archive.html Archive',
      'courses/hy100.html HY-100 Introduction to programming', 'courses/hy150.html HY-150 Programming',
      'people/staff.html Staff', 'people/faculty.html Faculty', 'people/students.html Students', 'contact.html Contact us',
    ]);
  });

  it('unquoted-attributes.html: careless attribute syntax', () => {
    const found = page('unquoted-attributes.html').links;
    expect(found.map((l) => l.href)).toEqual([
      'plain.html', '/search?q=crawler&lang=en', 'quoted.html', 'single.html', 'gt-in-title.html', 'spaced.html',
      'trailing-slash/', 'UPPER.HTML', '', '', 'padded.html', 'tab\t.html',
    ]);
    expect(found.filter((l) => l.nofollow).map((l) => l.href)).toEqual(['UPPER.HTML']);
  });

  it('nested-anchors.html: an anchor inside an anchor', () => {
    // Where html5lib's textContent gives "Blockanchor", the block boundary becomes a space.
    expect(texts('nested-anchors.html')).toEqual([
      'outer.html Outer', 'inner.html inner', 'block.html Block anchor', 'first.html First', 'second.html Second',
      'image.html Logo Home', 'only-image.html Only image', 'no-alt.html ',
    ]);
  });

  it('script-links.html: markup inside scripts, styles, templates and textareas is not markup', () => {
    expect(texts('script-links.html')).toEqual(['real-1.html Real one', 'noscript.html No script', 'real-2.html Real two', 'real-3.html Real three']);
  });

  it('comments.html: odd comment syntax', () => {
    expect(texts('comments.html')).toEqual([
      'visible-1.html Visible one', 'visible-2.html Visible two', 'after-abrupt.html after an abruptly closed comment',
      'after-abrupt-2.html after another', 'after-nested.html after "nested"', 'visible-3.html Visible three',
    ]);
  });

  it('cdata.html: CDATA is a bogus comment in HTML and text in SVG', () => {
    expect(page('cdata.html').title).toBe('CDATA sections');
    expect(texts('cdata.html')).toEqual(['after-cdata.html after CDATA', 'svg-link.html SVG link', 'after-svg.html after SVG']);
  });

  it('bogus-end-tags.html: end tags with spaces, attributes or no name', () => {
    expect(page('bogus-end-tags.html').links.map((l) => l.href)).toEqual(
      ['one.html', 'two.html', 'three.html', 'four.html', 'five.html', 'six.html', 'seven.html'],
    );
  });

  it('entities.html: named, numeric and legacy entities in text and attributes', () => {
    expect(page('entities.html').title).toBe('Café & Bar — Ωmega © 2024');
    expect(texts('entities.html')).toEqual([
      '/list?a=1&b=2 Amp & amp', '/list?a=1&b=2&copy=3 Legacy © in query', '/list?x=1&lang=el &lang in attribute',
      '/hex/dec.html Numeric “quotes”', '/café.html Café', 'nbsp.html no break space', 'bad\uFFFDnull.html null \uFFFD character',
    ]);
  });

  it('frames.html: upper-case frameset page, with a refresh; noframes content is raw text', () => {
    const found = page('frames.html');
    expect(found.title).toBe('Frameset page');
    expect(found.links).toEqual([link('frames.html', '', 'meta'), link('menu.html', '', 'frame'), link('main.html', '', 'frame')]);
  });
});

import { describe, expect, it } from 'vitest';
import { scanHtml } from './html-scanner.js';

/** Every event as a string: `<name attr=value ...>` (`/>` when self-closing), `</name>`, `"text"` (`'raw'` when not to be decoded). */
function events(html: string, wanted: readonly string[] = ['href', 'src', 'alt', 'title', 'rel', 'x']): string[] {
  const out: string[] = [];
  scanHtml(html, {
    startTag(name, attrs, selfClosing) {
      const shown = wanted.flatMap((a) => (attrs.get(a) === undefined ? [] : [`${a}=${attrs.get(a)}`]));
      out.push(`<${[name, ...shown].join(' ')}${selfClosing ? '/>' : '>'}`);
    },
    endTag: (name) => out.push(`</${name}>`),
    text: (from, to, decode) => out.push(decode ? `"${html.slice(from, to)}"` : `'${html.slice(from, to)}'`),
  });
  return out;
}

describe('scanHtml', () => {
  it('reports tags (names in lower case) and the text between them', () => {
    expect(events('x<P>one</P >y')).toEqual(['"x"', '<p>', '"one"', '</p>', '"y"']);
  });

  it('gives every name as written in lower case, usual or not', () => {
    expect(events('<dia><div><dig-x><DIV></div><d></dl><abbr><abbrx><h7><h1>')).toEqual(
      ['<dia>', '<div>', '<dig-x>', '<div>', '</div>', '<d>', '</dl>', '<abbr>', '<abbrx>', '<h7>', '<h1>'],
    );
    expect(events('<a-very-long-custom-element-name x=1>')).toEqual(['<a-very-long-custom-element-name x=1>']);
  });

  it('reads quoted, unquoted and valueless attributes; the first of a repeated name wins', () => {
    expect(events(`<a HREF = "a b" title='q"' x>`)).toEqual(['<a href=a b title=q" x=>']);
    expect(events('<a href=u/v?w=1&amp;z=2 href=second>')).toEqual(['<a href=u/v?w=1&z=2>']);
    expect(events('<a title="1 > 2" href=x>t</a>')).toEqual(['<a href=x title=1 > 2>', '"t"', '</a>']);
    expect(events('<a href="q.html"title="no space">')).toEqual(['<a href=q.html title=no space>']);
    expect(events('<a href=>')).toEqual(['<a href=>']);
  });

  it('decodes character references in attribute values as the HTML standard does in attributes', () => {
    expect(events('<a href="/l?a=1&lang=el&copy;&#x41;">')).toEqual(['<a href=/l?a=1&lang=el©A>']);
    expect(events('<a href="bad&#0;null">')).toEqual(['<a href=bad\uFFFDnull>']);
  });

  it('tells a self-closing slash from the end of an unquoted value', () => {
    expect(events('<br/><img src=a.png /><a href=dir/>')).toEqual(['<br/>', '<img src=a.png/>', '<a href=dir/>']);
  });

  it('skips comments, including abrupt and unterminated ones', () => {
    expect(events('a<!-- <b> -->b<!-->c<!--->d<!-- x --!>e')).toEqual(['"a"', '"b"', '"c"', '"d"', '"e"']);
    expect(events('a<!-- never closed <b>')).toEqual(['"a"']);
  });

  it('treats <!x>, <?x> and </3 x> as bogus comments, </> as nothing, and a lone < as text', () => {
    expect(events('<!DOCTYPE html><?xml x?>a</3 <b>c</>d< e')).toEqual(['"a"', '"c"', '"d< e"']);
  });

  it('reads end tags with attributes, ending where a quoted > does not', () => {
    expect(events('</a href=">">x')).toEqual(['</a>', '"x"']);
  });

  it('drops a tag that the end of the document cuts', () => {
    expect(events('a<a href="x')).toEqual(['"a"']);
    expect(events('a<a href=x')).toEqual(['"a"']);
  });

  it('keeps script, style and friends as raw text up to their own end tag, in any case', () => {
    expect(events('<script>if (a<b) x="</scripts>";</SCRIPT >t')).toEqual(['<script>', `'if (a<b) x="</scripts>";'`, '</script>', '"t"']);
    expect(events('<style>a[href="<a>"]{}</style>')).toEqual(['<style>', `'a[href="<a>"]{}'`, '</style>']);
    expect(events('<textarea><a href=x>&amp;</textarea>')).toEqual(['<textarea>', '"<a href=x>&amp;"', '</textarea>']);
    expect(events('<title>A &amp; <b>B</b></title>')).toEqual(['<title>', '"A &amp; <b>B</b>"', '</title>']);
    expect(events('<script>never closed <a href=x>')).toEqual(['<script>', "'never closed <a href=x>'"]);
    expect(events('<plaintext><a href=x></plaintext>')).toEqual(['<plaintext>', "'<a href=x></plaintext>'"]);
  });

  it('reads CDATA as text inside SVG and MathML, and as a bogus comment elsewhere', () => {
    expect(events('<![CDATA[ <a> ]]>x')).toEqual(['" ]]>x"']);
    expect(events('<svg><![CDATA[ <a> ]]><title>t</title></svg><![CDATA[y]]>')).toEqual([
      '<svg>', "' <a> '", '<title>', '"t"', '</title>', '</svg>',
    ]);
    expect(events('<math><svg/><![CDATA[z]]></math>')).toEqual(['<math>', '<svg/>', "'z'", '</math>']);
  });
});

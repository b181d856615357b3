import { describe, expect, it } from 'vitest';
import { wptUrlCases } from '../../test/support/wpt-url-cases.js';
import { cachedNormalizer } from './link-cache.js';
import { normalizeUrl } from './normalize-url.js';

const wpt = wptUrlCases();

/** Bases that share an origin, or a folder too, but differ in every other part. */
const BASES = [
  'http://a.test/dir/page.html', 'http://a.test/dir/other.html?q=1', 'http://a.test/dir/', 'http://a.test/dir/sub/x.html',
  'http://a.test/', 'http://a.test/index.html?x=/y/z', 'https://a.test/dir/page.html', 'http://b.test:8080/dir/page.html',
  'http://a.test/dir;p/page.html', 'http://a.test/di%72/page.html',
];

describe('cachedNormalizer', () => {
  it('answers as normalizeUrl does for every WPT input against bases that share parts, in any order', () => {
    const inputs = [...new Set(wpt.map((c) => c.input))];
    for (const order of [BASES, [...BASES].reverse()]) {
      const resolve = cachedNormalizer();
      for (const base of order) for (const href of inputs) expect([href, base, resolve(href, base)]).toEqual([href, base, normalizeUrl(href, base)]);
    }
  });

  it('answers as normalizeUrl does for the links of real pages, across pages of different folders', () => {
    const hrefs = ['index.html', '../up.html', './', '.', '..', 'a/b/../c.html', 'x.html?y=1#z', '/abs/path', '/', 'http://c.test/', 'HTTP://C.TEST:80/a',
      '?only-query', '#frag', '', ' lead.html', 'mailto:x@y.z', 'javascript:void(0)', '//d.test/p', '/\\e.test/p', 'a:b', 'Caf%c3%a9.html', 'tab\t.html', 'a\\b.html'];
    const resolve = cachedNormalizer({ sortQuery: true, stripWww: true, stripTracking: true });
    for (let round = 0; round < 2; round++)
      for (const base of BASES) for (const href of hrefs) expect(resolve(href, base)).toBe(normalizeUrl(href, base, { sortQuery: true, stripWww: true, stripTracking: true }));
  });

  it('remembers a link under its folder, and still answers right after it starts over when full', () => {
    const resolve = cachedNormalizer(undefined, 2);
    expect(resolve('b.html', 'http://a.test/x/1.html')).toBe('http://a.test/x/b.html');
    expect(resolve('b.html', 'http://a.test/x/2.html?q')).toBe('http://a.test/x/b.html');
    expect(resolve('b.html', 'http://a.test/y/1.html')).toBe('http://a.test/y/b.html');
    expect(resolve('c.html', 'http://a.test/y/1.html')).toBe('http://a.test/y/c.html');
  });
});

import { describe, expect, it } from 'vitest';
import { wptUrlCases } from '../../test/support/wpt-url-cases.js';
import { parsedNormalize, quickNormalize } from './normalize-url.js';

const wpt = wptUrlCases();

/** Bases as the parser serializes them (the quick way resolves against these), and some it does not. */
const BASES = [
  'http://a.test/dir/page.html', 'http://a.test/dir/other.html?q=1/2', 'http://a.test/', 'https://a-b.c.test:8443/x;y/z',
  'http://h1.bench.test:8080/p/1.html', 'http://a.test/di%72/', 'http://a.test/dir?', 'http://a.test', 'HTTP://A.test/',
  'http://a.test/x#f', 'http://a.test/./x', 'http://1.2.3.4/', undefined,
];

/** Links as pages write them, and the ways they go wrong: every one resolved both ways must agree. */
const HREFS = [
  'http://a.test/', 'http://a.test', 'http://a.test?x', 'http://a.test#x', 'https://a.test:443/', 'http://a.test:80/', 'http://a.test:8080/',
  'http://a.test:08/', 'http://a.test:65535/', 'http://a.test:65536/', 'http://a.test:/', 'http://a.test:8x/', 'http://A.test/', 'HTTP://a.test/',
  'http:/a.test/', 'http:a.test', 'http:///a.test/', 'http://a..test/', 'http://.a.test/', 'http://a.test./', 'http://-a.test/', 'http://a-.test/',
  'http://ab--cd.test/', 'http://xn--caf-dma.test/', 'http://xn--a.test/', 'http://a.123/', 'http://a.0x1f/', 'http://1.2.3.4/', 'http://999/',
  'http://a_b.test/', 'http://a.test\\x', 'http://jo@a.test/', 'http://a.test/a b', 'http://a.test/é', 'http://a.test/%7e/%zz/%2e',
  'http://a.test/./x', 'http://a.test/../x', 'http://a.test/x/..', 'http://a.test/x/%2E%2e/y', 'http://a.test/.well-known/x', 'http://a.test/x/.y',
  "http://a.test/it's?q='", 'http://a.test/a|b^c`d{e}f[g]h"i<j>k', 'http://a.test/x?a=1&b=2;c', 'http://a.test/x??', 'http://a.test/x?#',
  'http://a.test/x?a#b?c', 'http://a.test/x#a b é', `http://${'a'.repeat(64)}.test/`, `http://${'a'.repeat(63)}.test/`,
  `http://${'abcdefg.'.repeat(32)}test/`, 'https://a.test/x:y@z/', 'http://a.test/\t', 'http://a.test/x\ny',
  '/', '/x/y.html', '//b.test/x', '/\\b.test/x', '/./x', '/x/../y', '/x?q', '/x#f', '/%2e/', '/x y',
  'x.html', '12.html', 'x/y/z.html?q=1#f', './x', '../x', '.', '..', '.x', '%2e%2e/x', 'x/./y', 'a:b', '1a:b', 'a_b:c', ':x', 'x\\y', 'x y',
  '?', '?q=1', "?q='", '?q=é', '#', '#x', '#x y', 'é.html', 'mailto:jo@a.test', 'javascript:void(0)', 'tel:+1', 'c:\\x', 'data:,x', 'ftp://a.test/',
  'file:///x', 'Http://a.test/', 'https:x', ' x', 'x ', '\tx',
];

const agree = (href: string, base: string | undefined): void => {
  const quick = quickNormalize(href, base);
  if (quick !== null) expect([href, base, quick]).toEqual([href, base, parsedNormalize(href, base)]);
};

describe('quickNormalize', () => {
  it('answers as the parser does for the links of pages, against every base', () => {
    for (const base of BASES) for (const href of HREFS) agree(href, base);
  });

  it('answers as the parser does for every WPT input, against every base', () => {
    const inputs = [...new Set(wpt.map((c) => c.input))];
    for (const base of BASES) for (const href of inputs) agree(href, base);
  });

  it('answers as the parser does for random strings of the characters that matter', () => {
    const alphabet = ['a', 'B', '0', '9', '-', '.', '_', '~', '/', '\\', '?', '#', ':', '@', '%', '2', 'e', 'E', "'", ' ', '\t', 'é', '[', ']', 'x', 'n', 'http://', 'https://', 'a.test', ':80', ':443', '%2e', '..'];
    let seed = 1;
    const next = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    for (let i = 0; i < 20_000; i++) {
      let href = '';
      for (let k = next(8) + 1; k > 0; k--) href += alphabet[next(alphabet.length)];
      agree(href, BASES[next(BASES.length)]);
    }
  });

  it('answers the usual links without the parser', () => {
    const base = 'http://h1.bench.test:8080/p/1.html';
    for (const href of ['http://h2.bench.test:8080/p/2.html', '/p/3.html', '4.html', '#main', 'http://offsite.example/ref/1.html', 'mailto:jo@a.test', 'https://a.test'])
      expect([href, quickNormalize(href, base)]).toEqual([href, parsedNormalize(href, base)]);
  });

  it('leaves to the parser what it would change, and blank links are dropped', () => {
    for (const href of ['HTTP://a.test/', 'http://a.test:80/', '../x', 'x y', 'http://xn--caf-dma.test/', 'http://1.2.3.4/', '//b.test/']) expect(quickNormalize(href, 'http://a.test/')).toBeNull();
    expect(quickNormalize(' \t', 'http://a.test/')).toBeUndefined();
  });
});

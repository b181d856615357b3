import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './normalize-url.js';

interface Vectors {
  readonly normalize: readonly { input: string; expected: string; csv_line: number }[];
  readonly invalid: readonly { input: string; csv_line: number }[];
  readonly resolve: readonly { input: string; base: string; expected: string; csv_line: number }[];
}

const vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/testdata/url-normalization/url-normalization.json', import.meta.url), 'utf8'),
) as Vectors;

// Why SPEC §4 (or the WHATWG serialization it builds on) deliberately differs from crawler-commons.
const HTTP_ONLY = 'only http and https are crawled';
const NO_HOST = 'the WHATWG parser rejects an http URL without a host';
const NO_SCHEME = 'not a URL without a base; guessing http:// for a bare seed is a configuration concern';
const STANDARD_ESCAPES =
  'the standard leaves these characters unescaped in a query; we send what a browser sends and escape nothing more';
const EMPTY_SEGMENTS = 'empty path segments are kept: RFC 3986 does not make them equivalent, and servers may differ';
const BARE_PERCENT = 'a % starting no escape is left as the standard leaves it; %25 would request another resource';
const TRAILING_DOT = 'the standard keeps a trailing dot in the host, and a server may see "example.org." as another virtual host';
const EMPTY_VALUE = 'parameters are kept as written: "b=" and "b" can differ to a server, and an empty name is still data';
const FRAGMENT = 'SPEC drops the fragment';
const UPPER_HEX = 'SPEC uppercases percent-escapes';

/** Inputs of `normalize` (run with sortQuery, crawler-commons' default) where we differ: our output and why. */
const NORMALIZE_DIFFERENCES: ReadonlyMap<string, readonly [string | undefined, string]> = new Map([
  ['http://x.com/?x[y]=1', ['http://x.com/?x[y]=1', STANDARD_ESCAPES]],
  ['http://www.example.com/a/c/../b/search?q=foobar^', ['http://www.example.com/a/b/search?q=foobar^', STANDARD_ESCAPES]],
  ['http://www.example.com/a/c/../b/search?q=foobar`', ['http://www.example.com/a/b/search?q=foobar`', STANDARD_ESCAPES]],
  ['http://www.example.com/a/c/../b/search?q=foobar|', ['http://www.example.com/a/b/search?q=foobar|', STANDARD_ESCAPES]],
  ['http://foo.com//aa/bb/foo.html', ['http://foo.com//aa/bb/foo.html', EMPTY_SEGMENTS]],
  ['http://foo.com/aa//bb/foo.html', ['http://foo.com/aa//bb/foo.html', EMPTY_SEGMENTS]],
  ['http://foo.com/aa/bb//foo.html', ['http://foo.com/aa/bb//foo.html', EMPTY_SEGMENTS]],
  ['http://foo.com//aa//bb//foo.html', ['http://foo.com//aa//bb//foo.html', EMPTY_SEGMENTS]],
  ['http://foo.com////aa////bb//foo.html', ['http://foo.com////aa////bb//foo.html', EMPTY_SEGMENTS]],
  ['http://foo.com////aa////bb////foo.html', ['http://foo.com////aa////bb////foo.html', EMPTY_SEGMENTS]],
  ['file:///foo/bar.txt', [undefined, HTTP_ONLY]],
  ['ftp:/', [undefined, HTTP_ONLY]],
  ['ftp://foo.com/index.html', [undefined, HTTP_ONLY]],
  ['file:/path/index.html', [undefined, HTTP_ONLY]],
  ['file:/var/www/html/////./bar/index.html', [undefined, HTTP_ONLY]],
  ['file:/var/www/html/foo/../bar/index.html', [undefined, HTTP_ONLY]],
  ['http:////', [undefined, NO_HOST]],
  ['http:///////', [undefined, NO_HOST]],
  ['foo.com/index.html', [undefined, NO_SCHEME]],
  [
    'https://www.last.fm/music/Prefuse+73/_/90%+of+My+Mind+Is+With+You',
    ['https://www.last.fm/music/Prefuse+73/_/90%+of+My+Mind+Is+With+You', BARE_PERCENT],
  ],
  ['http://www.example.com/a/c/../b/search?q=foobar%', ['http://www.example.com/a/b/search?q=foobar%', BARE_PERCENT]],
  ['http://www.example.com/p%zz%77%v', ['http://www.example.com/p%zzw%v', BARE_PERCENT]],
  ['http://www.example.com/search?q=foobar%', ['http://www.example.com/search?q=foobar%', BARE_PERCENT]],
  ['http://www.example.com/search?q=foobar%2', ['http://www.example.com/search?q=foobar%2', BARE_PERCENT]],
  ['https://www.example.org./', ['https://www.example.org./', TRAILING_DOT]],
  ['http://foo.com/index?a=1&b=', ['http://foo.com/index?a=1&b=', EMPTY_VALUE]],
  ['http://foo.com/index?b=&a=1', ['http://foo.com/index?a=1&b=', EMPTY_VALUE]],
  ['http://foo.com/index?&=1&a=1', ['http://foo.com/index?=1&a=1', EMPTY_VALUE]],
  ['http://foo.com/index?=1&b=1&a=1', ['http://foo.com/index?=1&a=1&b=1', EMPTY_VALUE]],
]);

/** `resolve` cases (keyed by input) where we differ, all because of SPEC's own rules. */
const RESOLVE_DIFFERENCES: ReadonlyMap<string, readonly [string | undefined, string]> = new Map([
  ['http://user:pass@foo:21/bar;par?b#c', ['http://user:pass@foo:21/bar;par?b', FRAGMENT]],
  ['#right-menu', ['https://example.org/product/red-table', FRAGMENT]],
  ['/a%2fc', ['http://example.org/a%2Fc', UPPER_HEX]],
  ['/a/%2f/c', ['http://example.org/a/%2F/c', UPPER_HEX]],
  ['//server/file', [undefined, HTTP_ONLY]],
]);

describe('normalizeUrl against crawler-commons BasicURLNormalizer', () => {
  const normalize = vectors.normalize.filter((c) => !NORMALIZE_DIFFERENCES.has(c.input));
  const resolve = vectors.resolve.filter((c) => !RESOLVE_DIFFERENCES.has(c.input));

  it('has every listed difference among the vectors', () => {
    expect(vectors.normalize.length - normalize.length).toBe(NORMALIZE_DIFFERENCES.size);
    expect(vectors.resolve.length - resolve.length).toBe(RESOLVE_DIFFERENCES.size);
    expect([normalize.length, vectors.invalid.length, resolve.length]).toEqual([83, 2, 17]);
  });

  it.each(normalize)('normalizes $input (line $csv_line)', ({ input, expected }) => {
    expect(normalizeUrl(input, undefined, { sortQuery: true })).toBe(expected);
  });

  it.each([...NORMALIZE_DIFFERENCES])('normalizes %j differently on purpose', (input, [ours]) => {
    expect(normalizeUrl(input, undefined, { sortQuery: true })).toBe(ours);
  });

  it.each(vectors.invalid)('rejects $input without throwing', ({ input }) => {
    expect(normalizeUrl(input)).toBeUndefined();
  });

  it.each(resolve)('resolves $input against $base', ({ input, base, expected }) => {
    expect(normalizeUrl(input, base === '' ? undefined : base)).toBe(expected);
  });

  it.each([...RESOLVE_DIFFERENCES])('resolves %j differently on purpose', (input, [ours]) => {
    const c = vectors.resolve.find((r) => r.input === input);
    expect(normalizeUrl(input, c?.base)).toBe(ours);
  });
});

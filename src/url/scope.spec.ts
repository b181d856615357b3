import { describe, expect, it } from 'vitest';
import type { ScopeMode } from '../model/config.js';
import { growingScope, makeScope } from './scope.js';

type Row = readonly [url: string, inScope: boolean];

function check(mode: ScopeMode, seeds: readonly string[], rows: readonly Row[]): void {
  const inScope = makeScope(mode, seeds);
  for (const [url, expected] of rows) expect([url, inScope(new URL(url))]).toEqual([url, expected]);
}

describe('makeScope', () => {
  it('free-spanning admits any host', () => {
    check('free-spanning', ['http://a.com/'], [
      ['http://a.com/x', true],
      ['https://elsewhere.org:8080/y', true],
    ]);
  });

  it('domain-scope admits seed hosts and their subdomains, ignoring a seed www.', () => {
    check('domain-scope', ['http://www.csd.uoc.gr/', 'http://www.ics.forth.gr/'], [
      ['http://www.csd.uoc.gr/a', true],
      ['http://csd.uoc.gr/', true],
      ['https://users.csd.uoc.gr:8443/~jo/', true],
      ['http://a.b.ics.forth.gr/', true],
      ['http://uoc.gr/', false],
      ['http://www.uoc.gr/', false],
      ['http://xcsd.uoc.gr/', false],
      ['http://csd.uoc.gr.evil.com/', false],
      ['http://forth.gr/', false],
    ]);
  });

  it('domain-scope keeps the minimal domain set: foo2.foo1.domain.com adds nothing', () => {
    const rows: Row[] = [
      ['http://foo1.domain.com/', true],
      ['http://bar.foo1.domain.com/', true],
      ['http://foo2.foo1.domain.com/x', true],
      ['http://domain.com/', false],
      ['http://foo3.domain.com/', false],
    ];
    check('domain-scope', ['http://foo1.domain.com/', 'http://foo2.foo1.domain.com/'], rows);
    check('domain-scope', ['http://foo2.foo1.domain.com/', 'http://foo1.domain.com/'], rows);
  });

  it('domain-scope does not strip www. from a seed when only a top-level domain would remain', () => {
    check('domain-scope', ['http://www.com/'], [
      ['http://www.com/', true],
      ['http://a.www.com/', true],
      ['http://example.com/', false],
    ]);
  });

  it('host-scope needs the same scheme, host and port as a seed', () => {
    check('host-scope', ['http://www.sample.com/a/b.html', 'https://other.org:8443/'], [
      ['http://www.sample.com/', true],
      ['http://www.sample.com:80/x', true],
      ['http://WWW.Sample.com/z', true],
      ['https://www.sample.com/', false],
      ['http://www.sample.com:8080/', false],
      ['http://sample.com/', false],
      ['http://sub.www.sample.com/', false],
      ['https://other.org:8443/deep/x', true],
      ['https://other.org/', false],
    ]);
  });

  it("path-scope admits the whole host for a seed in the root directory", () => {
    check('path-scope', ['http://www.sample.com/index.html'], [
      ['http://www.sample.com/', true],
      ['http://www.sample.com/any/where.html', true],
      ['https://www.sample.com/', false],
      ['http://sample.com/', false],
    ]);
  });

  it("path-scope admits only the seed's directory and below", () => {
    check('path-scope', ['http://www.sample.com/path/index.html'], [
      ['http://www.sample.com/path/', true],
      ['http://www.sample.com/path/other.html', true],
      ['http://www.sample.com/path/sub/x.html?q=1', true],
      ['http://www.sample.com/path', false],
      ['http://www.sample.com/pathology/', false],
      ['http://www.sample.com/index.html', false],
      ['http://www.sample.com/', false],
      ['http://other.com/path/x', false],
    ]);
  });

  it('path-scope takes the directory of a seed without a trailing slash, and of several seeds', () => {
    check('path-scope', ['http://a.com/path', 'http://b.com/x/y/', 'http://b.com/x/y/z/', 'http://b.com/q/r.html'], [
      ['http://a.com/anything', true],
      ['http://b.com/x/y/', true],
      ['http://b.com/x/y/z/w', true],
      ['http://b.com/q/s', true],
      ['http://b.com/x/', false],
      ['http://b.com/', false],
    ]);
  });

  it('path-scope compares normalized paths', () => {
    check('path-scope', ['http://a.com/%7Ejo/./index.html'], [
      ['http://a.com/~jo/page', true],
      ['http://a.com/jo/page', false],
    ]);
  });

  it('throws on a seed that cannot be crawled', () => {
    expect(() => makeScope('host-scope', ['ftp://a.com/'])).toThrow(RangeError);
    expect(() => makeScope('domain-scope', ['not a url'])).toThrow(/not a url/);
  });

  it('normalizes seeds with the options given, so stripWww agrees with normalized candidates', () => {
    const inScope = makeScope('host-scope', ['http://www.a.com/'], { stripWww: true });
    expect(inScope(new URL('http://a.com/x'))).toBe(true);
    expect(inScope(new URL('http://www.a.com/x'))).toBe(false);
  });
});

describe('growingScope', () => {
  it.each<[ScopeMode, string, string, string]>([
    ['domain-scope', 'http://www.b.com/', 'http://x.b.com/p', 'http://c.com/'],
    ['host-scope', 'https://b.com:8443/', 'https://b.com:8443/q', 'http://b.com/q'],
    ['path-scope', 'http://a.com/docs/index.html', 'http://a.com/docs/x/y', 'http://a.com/blog/'],
  ])('%s: a seed added later widens the scope by what that seed would have given', (mode, seed, inside, outside) => {
    const scope = growingScope(mode, ['http://a.com/one/']);
    expect(scope.test(new URL(inside))).toBe(false);
    expect(scope.add(seed)).toBe(true);
    expect(scope.test(new URL(inside))).toBe(true);
    expect(scope.test(new URL(outside))).toBe(false);
    expect(scope.test(new URL('http://a.com/one/x'))).toBe(true);
  });

  it('says when a seed adds nothing, so callers pass on only what changed the scope', () => {
    const scope = growingScope('domain-scope', ['http://a.com/']);
    expect(scope.add('http://www.a.com/page')).toBe(false);
    expect(scope.add('http://sub.a.com/')).toBe(false);
    expect(scope.add('http://b.com/')).toBe(true);
    expect(scope.add('http://b.com/other')).toBe(false);
    expect(growingScope('free-spanning', []).add('http://c.com/')).toBe(false);
  });

  it('ignores a seed it cannot normalize instead of throwing, since input lines come from outside', () => {
    const scope = growingScope('host-scope', []);
    expect(scope.add('http://exa mple.com/')).toBe(false);
    expect(scope.test(new URL('http://a.com/'))).toBe(false);
  });
});

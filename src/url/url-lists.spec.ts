import { describe, expect, it } from 'vitest';
import { compileListPattern, isDirectoryLike, makeListFilter } from './url-lists.js';

// The lists of the assignment's sample Crawler.conf (SPEC §3), as the configuration reader builds them.
const ACCEPT = ['.*\\.[hH][tT][mM][lL]?$', '.*\\.[pP][dD][fF]$'].map((p) => new RegExp(p));
const REJECT = ['.*\\.[tT][mM][pP]\\.?.{0,4}$', '^#.*', '.*\\?.*'].map((p) => new RegExp(p));

describe('makeListFilter with the assignment lists', () => {
  const lists = makeListFilter(ACCEPT, REJECT);

  it.each([
    // [raw link as written, normalized URL, verdict]
    ['page.html', 'http://x.com/dir/page.html', undefined],
    ['OLD.HTM', 'http://x.com/dir/OLD.HTM', undefined],
    ['paper.PDF', 'http://x.com/paper.PDF', undefined],
    ['report.pdf#page=2', 'http://x.com/report.pdf', undefined],
    ['image.png', 'http://x.com/image.png', 'not-accepted'],
    ['style.css', 'http://x.com/style.css', 'not-accepted'],
    ['/news', 'http://x.com/news', undefined],
    ['/', 'http://x.com/', undefined],
    ['../a/b/', 'http://x.com/a/b/', undefined],
    ['v1.2', 'http://x.com/v1.2', 'not-accepted'],
    ['file.tmp', 'http://x.com/file.tmp', 'rejected'],
    ['file.TMP.bak', 'http://x.com/file.TMP.bak', 'rejected'],
    ['backup.tmp.html', 'http://x.com/backup.tmp.html', 'rejected'],
    ['#top', 'http://x.com/dir/page.html', 'rejected'],
    ['search.html?q=1', 'http://x.com/search.html?q=1', 'rejected'],
    ['page.html?', 'http://x.com/page.html', 'rejected'],
    ['/news?id=3', 'http://x.com/news?id=3', 'rejected'],
  ] as const)('judges %j (%s) as %s', (raw, normalized, verdict) => {
    expect(lists(raw, normalized)).toBe(verdict);
  });
});

describe('makeListFilter', () => {
  it('accepts on a match against the raw link alone', () => {
    const lists = makeListFilter([/^docs\//], []);
    expect(lists('docs/a.png', 'http://x.com/docs/a.png')).toBeUndefined();
    expect(lists('img/a.png', 'http://x.com/docs/img/a.png')).toBe('not-accepted');
  });

  it('rejects on a match against the normalized URL alone', () => {
    const lists = makeListFilter([], [/^https?:\/\/ads\./]);
    expect(lists('//ads.x.com/b.html', 'http://ads.x.com/b.html')).toBe('rejected');
    expect(lists('//www.x.com/b.html', 'http://www.x.com/b.html')).toBeUndefined();
  });

  it('with an empty accept list lets everything through that is not rejected', () => {
    const lists = makeListFilter([], REJECT);
    expect(lists('image.png', 'http://x.com/image.png')).toBeUndefined();
    expect(lists('a.tmp', 'http://x.com/a.tmp')).toBe('rejected');
  });

  it('gives the same answer every time for patterns with the g or y flag', () => {
    const lists = makeListFilter([/\.html$/g], [/\.tmp$/gy, /secret/g]);
    for (let i = 0; i < 3; i++) {
      expect(lists('a.html', 'http://x.com/a.html')).toBeUndefined();
      expect(lists('a.png', 'http://x.com/a.png')).toBe('not-accepted');
      expect(lists('a.tmp', 'http://x.com/a.tmp')).toBe('rejected');
      expect(lists('/my/secret/', 'http://x.com/my/secret/')).toBe('rejected');
    }
  });

  it('does not disturb the lastIndex of the caller’s patterns', () => {
    const accept = /\.html$/g;
    makeListFilter([accept], [])('a.html', 'http://x.com/a.html');
    expect(accept.lastIndex).toBe(0);
  });
});

describe('isDirectoryLike', () => {
  it.each([
    ['http://x.com/', true],
    ['http://x.com/news', true],
    ['http://x.com/a/b/', true],
    ['http://x.com/a.b/c', true],
    ['http://x.com/news?f=a.pdf', true],
    ['http://x.com/.well-known', true],
    ['http://x.com/a.html', false],
    ['http://x.com/a/b.tar.gz?x=1', false],
    ['http://a.b.com:8080/x.y', false],
    ['http://user:p.w@x.com/dir', true],
  ] as const)('%s is %s', (url, expected) => {
    expect(isDirectoryLike(url)).toBe(expected);
  });
});

describe('compileListPattern', () => {
  it.each([
    [/.*\?.*/, '\\?'],
    [/.*\.[hH][tT][mM][lL]?$/, '\\.[hH][tT][mM][lL]?$'],
    [/^#.*/, '^#'],
    [/.*?a.*?/, 'a'],
    [/a\.*/, 'a\\.*'],
    [/a\\.*/, 'a\\\\'],
    [/a.*$/, 'a.*$'],
    [/.*/, '(?:)'],
  ])('turns %s into /%s/', (re, source) => {
    expect(compileListPattern(re).source).toBe(source);
  });

  it('keeps other flags and drops g and y, in a regexp of its own', () => {
    expect(compileListPattern(/.*x/gmy).flags).toBe('m');
    const plain = /x/s;
    expect(compileListPattern(plain)).not.toBe(plain);
    expect(compileListPattern(plain).flags).toBe('s');
  });

  it('finishes a pattern that backtracks catastrophically on a URL made for it', () => {
    const url = `http://x.test/${'a'.repeat(40)}b`;
    expect(compileListPattern(/(a+)+$/).test(url)).toBe(false);
    expect(compileListPattern(/^(\w+\s?)*$/).test(url)).toBe(false);
  });

  it.each([
    [/(?=a)(a+)+$/, 'a lookahead'],
    [/(?<!a)b/, 'a lookbehind'],
    [/(a+)\1/, 'a backreference'],
    [/[\w-]{1,200}x/, 'a repeat count above 16'],
    [/\.pdf$/i, 'the i flag'],
  ])('refuses %s, which V8 cannot bound, naming %s', (re, why) => {
    expect(() => compileListPattern(re)).toThrow(`cannot be matched in linear time (${why}`);
  });

  const patterns = [/.*\?.*/, /^#.*/, /.*a|b.*/, /.*x.*$/, /a\.*/, /a\\.*/, /.*/, /.*\.[pP][dD][fF]$/s];
  const inputs = ['', '?', 'a', 'b', '#x', 'x#', 'ab', 'a.', 'a\\', 'x\n', 'y\nx', 'doc.PDF', 'doc.pdf\n', 'a..b'];
  it.each(patterns)('matches exactly the same strings as %s', (re) => {
    const compiled = compileListPattern(re);
    for (const s of inputs) expect([s, compiled.test(s)]).toEqual([s, re.test(s)]);
  });
});

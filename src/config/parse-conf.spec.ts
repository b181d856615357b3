import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { parseConf } from './parse-conf.js';

const parse = (src: string) => parseConf(src, 'Crawler.conf');

/** The error parseConf throws for `src`. */
function failure(src: string): ConfigError {
  try {
    parse(src);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('parsed without error');
}

describe('parseConf', () => {
  it('gives each statement its section, lowercased key, value and starting line', () => {
    expect(parse('<Crawler-Options>\nMAX-Depth = 3;\n\n<logging>\nlog-file = "log";')).toEqual([
      { section: 'crawler-options', key: 'max-depth', value: { kind: 'scalar', text: '3', line: 2 }, line: 2 },
      { section: 'logging', key: 'log-file', value: { kind: 'scalar', text: 'log', line: 5 }, line: 5 },
    ]);
  });

  it('reads a statement spread over lines, with comments and a trailing comma', () => {
    const [st] = parse('starting-points\n  =\n{\n "http://a.test/",\n # the other one\n http://b.test/ ,\n}\n;\n');
    expect(st).toEqual({
      section: undefined,
      key: 'starting-points',
      line: 1,
      value: { kind: 'list', line: 3, items: [{ text: 'http://a.test/', line: 4 }, { text: 'http://b.test/', line: 6 }] },
    });
  });

  it('reads an empty list as an empty list, and skips empty items', () => {
    expect(parse('a = { };')[0]!.value).toEqual({ kind: 'list', items: [], line: 1 });
    expect(parse('a = {,x,,y,};')[0]!.value).toMatchObject({ items: [{ text: 'x' }, { text: 'y' }] });
  });

  it('splits bare items at commas, as the assignment example needs', () => {
    const [st] = parse(String.raw`Reject-list = { ".*\.[tT][mM][pP]\.?.{0,4}$", ^#.*,.*\?.* };`);
    expect(st!.value).toMatchObject({ items: [{ text: String.raw`.*\.[tT][mM][pP]\.?.{0,4}$` }, { text: '^#.*' }, { text: String.raw`.*\?.*` }] });
  });

  it('ignores stray semicolons and trailing comments', () => {
    expect(parse(';\nthreads = 4; ; # four\n').map((s) => s.key)).toEqual(['threads']);
  });

  it('returns no statements for a file of comments', () => {
    expect(parse('# only\n   # comments\n\n')).toEqual([]);
  });

  it.each([
    ['a missing ";" at the end of the file', 'x = 1;\nthreads = 16', 'Crawler.conf:2: missing ";" after the value of threads, at the end of the file'],
    ['a missing ";" before the next key', 'threads = 16\nperiod = 72;', 'Crawler.conf:1: missing ";" after the value of threads, before "period" on line 2'],
    ['a list without "}" at the end of the file', '\na = {\n "x",\n "y"\n', 'Crawler.conf:2: unterminated list (opened here)'],
    ['a list closed by ";"', 'a = { "x", "y" ;', 'Crawler.conf:1: unterminated list (opened here)'],
    ['a list running into the next statement', 'a = { "x"\nb = 2;', 'Crawler.conf:1: unterminated list (opened here): expected "," or "}" before line 2'],
    ['list items without a comma', 'a = { "x" "y" };', 'Crawler.conf:1: expected "," or "}" between list items, found "y"'],
    ['an unterminated quote', 'a = 1;\nb = "x;\n', 'Crawler.conf:2: unterminated string (opened here): expected " before the end of the line'],
    ['a key without "="', '\n\nthreads 16;', 'Crawler.conf:3: expected "=" after threads, found "16"'],
    ['a missing value', 'threads = ;', 'Crawler.conf:1: missing value for threads (found ";")'],
    ['a value missing at the end of the file', 'threads =', 'Crawler.conf:1: missing value for threads (found the end of the file)'],
    ['something that is not a key', 'a = 1;\n= 2;', 'Crawler.conf:2: expected a key or a <section>, found "="'],
  ])('reports %s with its line', (_, src, message) => {
    const err = failure(src);
    expect(err.code).toBe('conf-syntax');
    expect(err.message).toBe(message);
  });

  it('reports an unknown section with the sections it knows', () => {
    const err = failure('<crawler-options>\nthreads = 1;\n<galaxy-options>\n');
    expect(err.code).toBe('conf-unknown-section');
    expect(err.message).toMatch(/^Crawler\.conf:3: unknown section <galaxy-options> \(expected <crawler-options>, .* or <distributed-options>\)$/);
  });
});

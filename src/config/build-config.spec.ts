import { describe, expect, it } from 'vitest';
import { buildConfig, type ConfigOverrides } from './build-config.js';
import { ConfigError } from './config-error.js';
import { DEFAULT_CONFIG } from './keys.js';
import { parseConf } from './parse-conf.js';

/** SPEC §3's example, verbatim. */
const SPEC_EXAMPLE = String.raw`# comment: a line whose first non-blank character is '#'
<crawler-options>
Starting-points = {
 "http://www.csd.uoc.gr/",
 "http://www.ics.forth.gr/",
};
accept-list = {".*\.[hH][tT][mM][lL]?$", ".*\.[pP][dD][fF]$" };
Reject-list = { ".*\.[tT][mM][pP]\.?.{0,4}$", ^#.*,.*\?.* };
max-page-number = 1000000;
scope = domain-scope ;
traversal-algorithm = "bfs";
repository = "./testbedcsdics";
<logging>
log-file = "log";
log-level = 1;
<recrawling-options>
period = 72;
<multithreading-options>
threads = 16;
`;

const SEED = '<crawler-options>\nstarting-points = { "http://a.test/" };\n';
const build = (src: string, overrides?: ConfigOverrides) => buildConfig(parseConf(src, 'Crawler.conf'), 'Crawler.conf', overrides);

function failure(src: string, overrides?: ConfigOverrides): ConfigError {
  try {
    build(src, overrides);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('built without error');
}

describe('buildConfig', () => {
  it('reads the assignment example of SPEC §3 to the right values, without warnings', () => {
    const { config, warnings } = build(SPEC_EXAMPLE);
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      startingPoints: ['http://www.csd.uoc.gr/', 'http://www.ics.forth.gr/'],
      acceptList: [/.*\.[hH][tT][mM][lL]?$/, /.*\.[pP][dD][fF]$/],
      rejectList: [/.*\.[tT][mM][pP]\.?.{0,4}$/, /^#.*/, /.*\?.*/],
      maxPageNumber: 1_000_000,
      scope: 'domain-scope',
      traversal: 'bfs',
      repository: './testbedcsdics',
      logFile: 'log',
      logLevel: 1,
      periodHours: 72,
      requestsInFlight: 16,
    });
    expect(config.rejectList.map((r) => r.test('#top'))).toEqual([false, true, false]);
    expect(config.acceptList[0]!.test('http://x.test/a.HTM')).toBe(true);
  });

  it('accepts a key in another section, warning with its own section', () => {
    const { config, warnings } = build(`${SEED}threads = 2;\n<logging>\nmax-depth = 4;`);
    expect(config.requestsInFlight).toBe(2);
    expect(config.maxDepth).toBe(4);
    expect(warnings).toEqual([
      'Crawler.conf:3: threads belongs in <multithreading-options>, not <crawler-options>; accepted',
      'Crawler.conf:5: max-depth belongs in <crawler-options>, not <logging>; accepted',
    ]);
  });

  it('accepts keys before any section header without a warning', () => {
    expect(build(`threads = 3;\n${SEED}`).warnings).toEqual([]);
  });

  it('warns about a key set twice, and keeps the later value', () => {
    const { config, warnings } = build(`${SEED}MAX-DEPTH = 1;\nmax-depth = 2;`);
    expect(config.maxDepth).toBe(2);
    expect(warnings).toEqual(['Crawler.conf:4: max-depth is set again (first on line 3); this value wins']);
  });

  it('refuses an unknown key, naming its section and the likely key', () => {
    const err = failure(`${SEED}\n\n\n\nmax-pages-numbr = 5;`);
    expect(err.code).toBe('conf-unknown-key');
    expect(err.message).toBe('Crawler.conf:7: unknown key "max-pages-numbr" in <crawler-options>; did you mean "max-page-number"?');
    expect(failure('colour = red;').message).toBe('Crawler.conf:1: unknown key "colour"');
  });

  it.each([
    ['a bad number', `${SEED}max-depth = abc;`, 'Crawler.conf:3: "abc" is not a number for max-depth'],
    ['an unknown scope', `${SEED}\nscope = galaxy;`, 'Crawler.conf:4: unknown scope "galaxy" (expected free-spanning, domain-scope, host-scope or path-scope)'],
    ['a bad regular expression on its own line of a list', `${SEED}reject-list = {\n "a",\n "(",\n};`, 'Crawler.conf:5: bad regular expression "(": Unterminated group'],
    ['a relative starting point', 'starting-points = { "http://a.test/",\n "/about" };', 'Crawler.conf:2: "/about" is not an absolute http(s) URL in starting-points'],
    ['min-delay above max-delay', `${SEED}<politeness-options>\nmin-delay = 500;\nmax-delay = 100;`, 'Crawler.conf:5: min-delay (500 ms) is above max-delay (100 ms)'],
  ])('refuses %s, naming the line', (_, src, message) => {
    const err = failure(src);
    expect(err.code).toBe('conf-bad-value');
    expect(err.message).toBe(message);
  });

  it('lets max-delay 0 mean no upper bound', () => {
    expect(build(`${SEED}min-delay = 500;\nmax-delay = 0;`).config.maxDelayMs).toBe(0);
  });

  it('refuses a config without starting points, naming the empty list when there is one', () => {
    expect(failure('threads = 1;').message).toBe(
      'Crawler.conf: no starting points: set starting-points in <crawler-options> or pass --seed URL (or -i FILE)',
    );
    const err = failure('\nstarting-points = { };');
    expect(err.code).toBe('conf-no-seeds');
    expect(err.message).toMatch(/^Crawler\.conf:2: no starting points/);
  });

  it('lets overrides replace the file, seeds included, but adds resolve entries', () => {
    const src = `${SEED}max-depth = 1;\nresolve = { "a.test:80:127.0.0.1" };\nindex-file = "out.jsonl";`;
    const extra = { host: 'b.test', port: 80, address: '::1' };
    const { config } = build(src, {
      startingPoints: ['http://b.test/'],
      maxDepth: 9,
      resolve: [extra],
      indexFile: undefined,
    });
    expect(config.startingPoints).toEqual(['http://b.test/']);
    expect(config.maxDepth).toBe(9);
    expect(config.resolve).toEqual([{ host: 'a.test', port: 80, address: '127.0.0.1' }, extra]);
    expect(config.indexFile).toBeUndefined();
  });

  it('gives seeds from overrides to a file without any', () => {
    expect(build('threads = 2;', { startingPoints: ['http://c.test/'] }).config.startingPoints).toEqual(['http://c.test/']);
  });

  it('places a delay conflict made by an override at the line of the file that takes part', () => {
    expect(failure(`${SEED}min-delay = 500;`, { maxDelayMs: 100 }).message).toBe(
      'Crawler.conf:3: min-delay (500 ms) is above max-delay (100 ms)',
    );
  });
});

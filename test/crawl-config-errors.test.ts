import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('order');
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/**
 * Each case's Crawler.conf (line 1 first) seeds a host of its own, resolved to the fixture server,
 * so that a request the crawler should not have sent shows up under that name in the request log.
 */
const CASES: [name: string, conf: (seed: string) => string[], line: number, message: RegExp][] = [
  ['an unknown key', (s) => ['<crawler-options>', `starting-points = { "${s}" };`, 'max-pages-numbr = 3;'], 3, /unknown key "max-pages-numbr"/i],
  ['an unknown section', (s) => ['<crawler-options>', `starting-points = { "${s}" };`, '<crawling-options>', 'threads = 2;'], 3, /unknown section/i],
  ['a bad regular expression', (s) => ['<crawler-options>', `starting-points = { "${s}" };`, '', 'accept-list = { ".*\\.html$", "([a-z" };'], 4, /regular expression/i],
  ['a regular expression that cannot be bounded', (s) => ['<crawler-options>', `starting-points = { "${s}" };`, '', 'reject-list = { "\\.tmp$", "(?=a)(a+)+$" };'], 4,
    /"\(\?=a\)\(a\+\)\+\$" in reject-list cannot be matched in linear time \(a lookahead\)/],
  ['a bad number', (s) => ['<crawler-options>', `starting-points = { "${s}" };`, 'max-depth = deep;'], 3, /"deep".*max-depth|max-depth.*"deep"/i],
  ['a bad scope', (s) => ['<crawler-options>', `starting-points = { "${s}" };`, 'scope = galaxy-scope;'], 3, /scope "galaxy-scope"/i],
  ['a bad seed URL', (s) => ['<crawler-options>', `starting-points = { "${s}",`, '  "not a url" };'], 3, /url/i],
  ['an unterminated list', (s) => ['<crawler-options>', `starting-points = { "${s}" };`, 'reject-list = { ".*\\.tmp$",', '  ".*\\?.*"', 'max-depth = 3;'], 3, /unterminated list/i],
];

/** Runs `crawl CONF` in the temp folder with its seed host resolved to the server; the host it used. */
async function crawlConf(name: string, lines: (seed: string) => string[]) {
  const host = `${name.replace(/\W+/g, '-')}.test`;
  const file = `${host}.conf`;
  await writeFile(join(tmp.dir, file), lines(web.url(host)).join('\n') + '\n');
  const result = await runCli(['crawl', file, '--repository', join(tmp.dir, host), ...resolveFlags([host], web.server.port), ...NO_DELAYS, ...NO_SITEMAPS], { cwd: tmp.dir });
  return { ...result, host, file };
}

const requestsTo = (host: string) => web.server.requests.filter((r) => r.host === host);

describe('a bad configuration exits 2 before any request, naming the file and line', () => {
  it.concurrent.each(CASES)('%s', async (name, lines, line, message) => {
    const run = await crawlConf(name, lines);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`${run.file.replace(/\./g, '\\.')}:${line}: `));
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
    await sleep(50);
    expect(requestsTo(run.host)).toEqual([]);
  });

  it('no starting points at all', async () => {
    const run = await crawlConf('no seeds', () => ['<crawler-options>', 'max-depth = 3;']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/no-seeds\.test\.conf: .*starting points/);
  });

  it('a missing Crawler.conf named on the command line', async () => {
    const run = await runCli(['crawl', 'no-such.conf', '--seed', web.url('missing.test'), ...resolveFlags(['missing.test'], web.server.port)], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/no-such\.conf/);
    expect(requestsTo('missing.test')).toEqual([]);
  });

  it.concurrent.each([
    ['--max-depth', 'deep'],
    ['--no-such-flag', '1'],
  ])('a bad flag %s %s', async (flag, value) => {
    const host = `flag${flag.replace(/\W+/g, '-')}.test`;
    const run = await runCli(['crawl', '--seed', web.url(host), flag, value, ...resolveFlags([host], web.server.port)], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(flag);
    await sleep(50);
    expect(requestsTo(host)).toEqual([]);
  });
});

describe('a configuration read leniently', () => {
  it('accepts a known key in another section with a warning naming its section, and an empty list', async () => {
    const conf = (seed: string) => ['<crawler-options>', `starting-points = { "${seed}" };`, 'accept-list = { };', 'threads = 2;'];
    const run = await crawlConf('lenient', conf);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/lenient\.test\.conf:4: .*threads.*<multithreading-options>/);
    expect(requestsTo(run.host).map((r) => r.path)).toEqual(['/robots.txt', '/']);
  });
});

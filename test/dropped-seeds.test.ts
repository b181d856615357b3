import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { logLines } from './support/hostile-web.js';
import { writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

/**
 * Seeds that admission drops before any request: a loopback address piped in with -i (without
 * --allow-private-addresses; the hosts of --seed and starting-points are trusted, README "Crawling
 * the real web") and a URL longer than max-url-length, however it was given. Each one is named in a
 * warning at log-level 0, with the reason and the key (and flag) that lets it through.
 */
const HOST = 'www.seeds.test';
const LONG_PATH = `/${'x'.repeat(60)}.html`;

let server: FixtureServer;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let runs = 0;
beforeAll(async () => {
  tmp = await tempDir();
  await writePage(join(tmp.dir, 'web'), HOST, 'index.html', '<!doctype html><title>home</title>');
  await writePage(join(tmp.dir, 'web'), HOST, LONG_PATH.slice(1), '<!doctype html><title>long</title>');
  server = await startFixtureServer({ root: join(tmp.dir, 'web') });
});
afterAll(async () => {
  await server?.close();
  await tmp?.remove();
});

/** `tarantula crawl ARGS` at log-level 0 in a folder of its own (with `conf` as its Crawler.conf); `stdin` piped in. */
async function crawl(args: readonly string[], opts: { stdin?: string; conf?: string } = {}) {
  const cwd = join(tmp.dir, `run-${++runs}`);
  await writePage(cwd, '.', 'Crawler.conf', opts.conf ?? '');
  server.requests.length = 0;
  const run = await runCli(['crawl', '--log-level', '0', '--repository', join(cwd, 'repo'), '--min-delay', '0', '--max-delay', '0', '--delay-factor', '0', ...args], {
    cwd,
    ...(opts.stdin !== undefined ? { stdin: 'pipe' as const, onSpawn: (child) => void child.stdin!.end(opts.stdin) } : {}),
  });
  const warnings = logLines(run.stderr).filter((l) => l.level === 40 && typeof l.msg === 'string' && l.msg.startsWith('seed not crawled'));
  return { ...run, warnings, requested: server.requests.map((r) => r.path) };
}

const loopback = () => `http://127.0.0.1:${server.port}/`;
const PRIVATE = /^seed not crawled: its address is loopback, private or reserved; allow-private-addresses = true \(--allow-private-addresses\) lets it through$/;

describe('a seed that admission drops is named in a warning, with the reason and the key that lets it through', () => {
  it('a private address piped in with -i, twice: one warning, and nothing requested', async () => {
    const run = await crawl(['-i', '-'], { stdin: `${loopback()}\n${loopback()}\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.requested).toEqual([]);
    expect(run.warnings).toHaveLength(1);
    expect(run.warnings[0]).toMatchObject({ url: loopback(), reason: 'private-address' });
    expect(run.warnings[0]!.msg).toMatch(PRIVATE);
  });

  it('a seed of the starting-points of Crawler.conf longer than max-url-length: one warning naming the key', async () => {
    const long = `http://${HOST}:${server.port}${LONG_PATH}`;
    const run = await crawl([...resolveFlags([HOST], server.port)], { conf: `<crawler-options>\nstarting-points = { "${long}" };\nmax-url-length = 50;\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.requested).toEqual([]);
    expect(run.warnings.map((w) => [w.url, w.reason])).toEqual([[long, 'too-long']]);
  });

  it('a seed longer than max-url-length names max-url-length; the other seed is crawled, without a warning', async () => {
    const long = `http://${HOST}:${server.port}${LONG_PATH}`;
    const run = await crawl(['--seed', long, '--seed', `http://${HOST}:${server.port}/`, '--max-url-length', '50', ...resolveFlags([HOST], server.port)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.requested).toEqual(['/robots.txt', '/']);
    expect(run.warnings.map((w) => [w.url, w.reason])).toEqual([[long, 'too-long']]);
    expect(run.warnings[0]!.msg).toContain('max-url-length (--max-url-length, 0 = no limit)');
  });

  it('with --allow-private-addresses the same seed piped in is crawled, without a warning', async () => {
    const run = await crawl(['-i', '-', '--allow-private-addresses'], { stdin: `${loopback()}\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toEqual([]);
    expect(run.requested).toEqual(['/robots.txt', '/']);
  });
});

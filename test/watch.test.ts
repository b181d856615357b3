import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { makeTreeSite } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOST = 'www.watch.test';

describe('tarantula crawl --watch', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    await makeTreeSite(join(dir, 'web'), [HOST], 5);
    server = await startFixtureServer({ root: join(dir, 'web') });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  it('crawls, then recrawls every period with conditional requests, until SIGINT', async () => {
    const pages = () => server.requests.filter((r) => !r.path.endsWith('robots.txt'));
    const run = await runCli(
      ['crawl', '--watch', '--period', '0.0003', '--seed', `http://${HOST}:${server.port}/p0.html`, ...resolveFlags([HOST], server.port),
        '--repository', join(dir, 'repo'), '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0', '--sitemaps', 'false'],
      {
        cwd: dir,
        onSpawn: (child) => {
          // Stop once the third crawl has asked for every page.
          const poll = setInterval(() => {
            if (pages().length >= 15) {
              clearInterval(poll);
              child.kill('SIGINT');
            }
          }, 20);
          child.on('exit', () => clearInterval(poll));
        },
      },
    );
    expect(run.code).toBe(130);
    const first = pages().slice(0, 5);
    const later = pages().slice(5, 15);
    expect(first.every((r) => r.headers['if-none-match'] === undefined)).toBe(true);
    expect(later.every((r) => r.headers['if-none-match'] !== undefined && r.status === 304)).toBe(true);
    const stats = JSON.parse(await readFile(join(dir, 'repo', 'stats.json'), 'utf8')) as { recrawl?: Record<string, number> };
    expect(stats.recrawl).toBeDefined();
    const index = await readFile(join(dir, 'repo', 'index.txt'), 'utf8');
    expect(index.split('\n').filter((l) => l !== '' && !l.startsWith('\t'))).toHaveLength(5);
  }, 60_000);

  it('with recrawl-policy adaptive, wakes when the first page is due, not after the period', async () => {
    const mine = () => server.requests.filter((r) => !r.path.endsWith('robots.txt') && r.headers['user-agent'] === 'adaptive-watch');
    // The period stays at its 72 hours: only the pages' own intervals (3.6 s here) can bring the second crawl.
    const run = await runCli(
      ['crawl', '--watch', '--recrawl-policy', 'adaptive', '--min-interval', '0.001', '--max-interval', '0.001', '--user-agent', 'adaptive-watch',
        '--seed', `http://${HOST}:${server.port}/p0.html`, ...resolveFlags([HOST], server.port),
        '--repository', join(dir, 'adaptive'), '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0', '--sitemaps', 'false'],
      {
        cwd: dir,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (mine().length >= 10) {
              clearInterval(poll);
              child.kill('SIGINT');
            }
          }, 20);
          child.on('exit', () => clearInterval(poll));
        },
      },
    );
    expect(run.code, run.stderr).toBe(130);
    const second = mine().slice(5, 10);
    expect(second.every((r) => r.headers['if-none-match'] !== undefined)).toBe(true);
    // Woken by the first page due: its interval after the first crawl is min-interval, 3.6 s.
    expect(second[0]!.start - mine()[0]!.start).toBeGreaterThanOrEqual(3_500);
  }, 60_000);
});

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { makeTreeSite } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOSTS = ['alpha.resume.test', 'beta.resume.test'];
const PAGES = 40;

describe('a crawl killed with SIGKILL resumes where it stopped', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    await makeTreeSite(join(dir, 'web'), HOSTS, PAGES);
    server = await startFixtureServer({ root: join(dir, 'web') });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  const args = () => [
    'crawl', '--seed', `http://${HOSTS[0]}:${server.port}/p0.html`, ...resolveFlags(HOSTS, server.port),
    '--repository', join(dir, 'repo'), // A politeness delay keeps the crawl running long enough to be killed mid-way.
    '--threads', '2', '--delay-factor', '0', '--min-delay', '30', '--max-delay', '30',
    '--log-level', '0', '--scope', 'free-spanning', '--sitemaps', 'false',
  ];

  it('fetches every page once, but those in flight at each kill, and writes a whole index', async () => {
    const fetchedBefore = (): number => server.requests.filter((r) => !r.path.endsWith('robots.txt') && r.status !== 0).length;
    for (const killAfter of [5, 25, 45]) {
      const run = await runCli(args(), {
        cwd: dir,
        onSpawn: (child) => {
          const start = fetchedBefore();
          const poll = setInterval(() => {
            if (fetchedBefore() - start >= killAfter / 3 || fetchedBefore() >= killAfter) {
              clearInterval(poll);
              child.kill('SIGKILL');
            }
          }, 5);
          child.on('exit', () => clearInterval(poll));
        },
      });
      expect(run.signal).toBe('SIGKILL');
    }
    const last = await runCli(args(), { cwd: dir });
    expect(last.code).toBe(0);

    const pages = server.requests.filter((r) => !r.path.endsWith('robots.txt'));
    const counts = new Map<string, number>();
    for (const r of pages) counts.set(`${r.host}${r.path}`, (counts.get(`${r.host}${r.path}`) ?? 0) + 1);
    expect(counts.size).toBe(HOSTS.length * PAGES);
    const twice = [...counts].filter(([, n]) => n > 1);
    // At each of the three kills, at most the units in flight are lost: from its pull until its journal
    // line is written a unit is in flight, fetching (`threads` = 2) or parsing and storing (as many again).
    expect(twice.length).toBeLessThanOrEqual(3 * 2 * 2);
    expect(twice.every(([, n]) => n === 2)).toBe(true);

    const index = await readFile(join(dir, 'repo', 'index.txt'), 'utf8');
    const records = index.split('\n').filter((l) => l !== '' && !l.startsWith('\t'));
    expect(records.length).toBe(HOSTS.length * PAGES);
    expect(new Set(records.map((r) => r.split('\t')[1])).size).toBe(HOSTS.length * PAGES);
    expect(records.every((r) => r.split('\t').length === 8)).toBe(true);
    expect(index.endsWith('\n')).toBe(true);

    const leftovers: string[] = [];
    for (const host of await readdir(join(dir, 'repo'))) if (host.includes('+')) for (const f of await readdir(join(dir, 'repo', host))) if (f.startsWith('#')) leftovers.push(f);
    expect(leftovers).toEqual([]);
  }, 120_000);
});

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOSTS = ['wide.spill.test', 'other.spill.test'];
/** Links of each host's first page: with memory-budget 0 a host's queue spills past a few kilobytes (about 130 URLs of these). */
const LINKS = 200;

/** Where the frontier spills to in a repository. */
const segments = (repo: string): string => join(repo, '.tarantula', 'frontier');

describe('a crawl whose frontier spills to disk (memory-budget 0)', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  const urls: string[] = [];

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    const web = join(dir, 'web');
    for (const [h, host] of HOSTS.entries()) {
      const next = HOSTS[(h + 1) % HOSTS.length];
      const links = Array.from({ length: LINKS }, (_, i) => `<a href="q${i}.html">${i}</a>`).join('');
      await writePage(web, host, 'p0.html', `<!doctype html><title>p0</title><a href="http://${next}/p0.html">next</a>${links}`);
      urls.push(`http://${host}/p0.html`);
      for (let i = 0; i < LINKS; i++) {
        // Each page found adds one more: the queues keep spilling while they are taken. (Its host in its text: no duplicate across hosts.)
        await writePage(web, host, `q${i}.html`, `<!doctype html><title>${host} q${i}</title><a href="r${i}.html">r</a>`);
        await writePage(web, host, `r${i}.html`, `<!doctype html><title>${host} r${i}</title><p>${i}`);
        urls.push(`http://${host}/q${i}.html`, `http://${host}/r${i}.html`);
      }
    }
    server = await startFixtureServer({ root: web });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  const args = (repo: string, delayMs = 0): string[] => [
    'crawl', '--seed', `http://${HOSTS[0]}:${server.port}/p0.html`, ...resolveFlags(HOSTS, server.port),
    '--repository', repo, '--memory-budget', '0', '--threads', '2', '--log-level', '0', '--scope', 'free-spanning', '--sitemaps', 'false',
    '--delay-factor', '0', '--min-delay', String(delayMs), '--max-delay', String(delayMs),
  ];
  const indexed = async (repo: string): Promise<string[]> =>
    (await readFile(join(repo, 'index.txt'), 'utf8')).split('\n').filter((l) => l !== '' && !l.startsWith('\t')).map((l) => l.split('\t')[1]!.replace(`:${server.port}/`, '/'));

  it('resumes exactly after a SIGKILL while its queues spill: every page once, but those in flight', async () => {
    const repo = join(dir, 'killed');
    const before = server.requests.length;
    const fetched = (): number => server.requests.length - before;
    // A politeness delay keeps the crawl running long enough to be killed mid-way, with few pages in flight.
    const killed = await runCli(args(repo, 30), {
      cwd: dir,
      onSpawn: (child) => {
        // Blocks are on disk, and the queues of both hosts keep spilling and refilling. The segments are
        // never read on a resume, so a kill at any byte of a block's write is the same as this one.
        const poll = setInterval(() => {
          if (existsSync(join(segments(repo), 'segment-000001.bin')) && fetched() >= 150) {
            clearInterval(poll);
            child.kill('SIGKILL');
          }
        }, 2);
        child.on('exit', () => clearInterval(poll));
      },
    });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(fetched()).toBeLessThan(urls.length);

    const again = await runCli(args(repo), { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect((await indexed(repo)).sort()).toEqual(urls.slice().sort());
    const counts = new Map<string, number>();
    for (const r of server.requests.slice(before)) if (!r.path.endsWith('robots.txt')) counts.set(r.host + r.path, (counts.get(r.host + r.path) ?? 0) + 1);
    expect(counts.size).toBe(urls.length);
    // Fetched twice: only what was in flight at the kill, fetching (threads = 2) or parsing and storing (as many
    // again), and what was stored while its journal line waited for the next write (a 20 ms batch, longer when
    // the machine is busy); the 150 pages before them never.
    expect([...counts.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(8);
    const stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8')) as { pending: number; completed: boolean };
    expect(stats).toMatchObject({ pending: 0, completed: true });
    // The segments are a cache of the journal: gone once the crawl ends.
    expect(existsSync(segments(repo))).toBe(false);
  });

  it('stops with exit 1 and one line when the disk cannot take a spill, nothing admitted lost; a rerun with room completes', async () => {
    const repo = join(dir, 'full');
    // A segment file is larger than this: the first spill fails with EFBIG, as on a full disk; the journal and the pages fit.
    const full = await runCli(args(repo), { cwd: dir, fileSizeLimitKb: 4096 });
    expect(full.code, full.stderr).toBe(1);
    const errors = full.stderr.split('\n').filter((l) => l.includes('"level":50'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`"msg":"the crawl state ${segments(repo)} can take no more: EFBIG[^"]*; stopping \\(a rerun once there is room resumes the crawl\\)"`));
    const stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8')) as { pending: number; completed: boolean; failures: number };
    expect(stats).toMatchObject({ completed: false, failures: 0 });
    expect(stats.pending).toBeGreaterThan(LINKS / 2);

    const again = await runCli(args(repo), { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect((await indexed(repo)).sort()).toEqual(urls.slice().sort());
  });
});

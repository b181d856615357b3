import { watch } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOSTS = ['a.spill.test', 'b.spill.test'];
const PAGES = 150;
/**
 * `memory-budget 0`: a seen-set table of 16 slots, spilled every 12 URLs (the crawl below admits 300,
 * and finds each about 4 times); content MD5s spilled at every page, a near-duplicate index of the last two.
 */
const SMALL = ['--memory-budget', '0'];

/** Pages of the second host that are byte for byte the first host's page of the same number: exact duplicates. */
const COPIES = 50;

/**
 * `PAGES` pages a host, each linking two children (a tree, so all are reachable), two pages of its
 * own host found from elsewhere too, and the same page of the other host: most links are duplicates.
 * The last {@link COPIES} pages of the second host are copies of the first host's.
 */
async function makeWeb(root: string): Promise<string[]> {
  const urls: string[] = [];
  for (const [h, host] of HOSTS.entries()) {
    const other = HOSTS[(h + 1) % HOSTS.length]!;
    for (let i = 0; i < PAGES; i++) {
      const targets = [2 * i + 1, 2 * i + 2, (7 * i + 3) % PAGES, (13 * i + 5) % PAGES].filter((j) => j < PAGES);
      const links = [...targets.map((j) => `<a href="p${j}.html">${j}</a>`), `<a href="http://${h === 1 && i >= PAGES - COPIES ? host : other}/p${i}.html">other</a>`];
      const title = h === 1 && i >= PAGES - COPIES ? `${other} ${i}` : `${host} ${i}`;
      await writePage(root, host, `p${i}.html`, `<!doctype html><title>${title}</title><body>${links.join('\n')}</body>`);
      urls.push(`${host}/p${i}.html`);
    }
  }
  return urls;
}

describe('a crawl past its seen-set budget', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  let pages: string[];

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    pages = await makeWeb(join(dir, 'web'));
    server = await startFixtureServer({ root: join(dir, 'web') });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  const args = (repo: string, ...more: string[]): string[] => [
    'crawl', '--seed', `http://${HOSTS[0]}:${server.port}/p0.html`, ...resolveFlags(HOSTS, server.port), '--repository', join(dir, repo),
    '--threads', '2', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0', '--scope', 'free-spanning', '--sitemaps', 'false', ...more,
  ];
  /** Page fetches by URL (host and path), of the requests made since `from`. */
  const fetches = (from: number): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const r of server.requests.slice(from)) if (!r.path.endsWith('robots.txt') && r.status !== 0) counts.set(`${r.host}${r.path}`, (counts.get(`${r.host}${r.path}`) ?? 0) + 1);
    return counts;
  };
  const indexed = async (repo: string): Promise<string[]> =>
    (await readFile(join(dir, repo, 'index.txt'), 'utf8')).split('\n').filter((l) => l !== '' && !l.startsWith('\t')).map((l) => l.split('\t')[1]!).sort();

  for (const traversal of ['bfs', 'dfs']) {
    it(`fetches every page once (${traversal}), finds every copy, as in memory, and leaves no run behind`, async () => {
      const runs: Record<string, { counts: Map<string, number>; index: string[] }> = {};
      for (const [name, budget] of [['memory', []], ['spilled', SMALL]] as const) {
        const from = server.requests.length;
        // Depth-first goes deep before wide: no max-depth, so that every page is reached whichever way.
        const jsonl = join(dir, `${traversal}-${name}.jsonl`);
        const run = await runCli(args(`${traversal}-${name}`, '--traversal', traversal, '--max-depth', '1000', '--index', jsonl, '--format', 'jsonl', ...budget), { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
        const records = (await readFile(jsonl, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { duplicateOf: string | null });
        // Of each page and its copy, the one fetched second is the copy, found in memory or in the runs on disk.
        expect(records.filter((r) => r.duplicateOf !== null)).toHaveLength(COPIES);
        runs[name] = { counts: fetches(from), index: await indexed(`${traversal}-${name}`) };
      }
      const spilled = runs['spilled']!;
      expect(spilled.counts.size).toBe(pages.length);
      expect([...spilled.counts.values()].every((n) => n === 1)).toBe(true);
      expect(spilled.index).toEqual(runs['memory']!.index);
      expect(await readdir(join(dir, `${traversal}-spilled`, '.tarantula'))).not.toContain('seen');
    }, 120_000);
  }

  it('resumes exactly after SIGKILLs as runs are merged, whatever runs a killed process left', async () => {
    const repo = join(dir, 'killed');
    const state = join(repo, '.tarantula');
    const from = server.requests.length;
    let kills = 0;
    for (let round = 0; round < 3; round++) {
      const run = await runCli(args('killed', ...SMALL), {
        cwd: dir,
        onSpawn: (child) => {
          // A merge writes NAME.merging, renamed when whole: killed as soon as one is seen.
          const poll = setInterval(() => {
            readdir(join(state, 'seen')).then((names) => {
              if (names.some((n) => n.endsWith('.merging'))) child.kill('SIGKILL');
            }, () => undefined);
          }, 1);
          let watcher: ReturnType<typeof watch> | undefined;
          const watchSeen = (): void => {
            try {
              watcher = watch(join(state, 'seen'), (_event, name) => {
                if (name?.endsWith('.merging') === true) child.kill('SIGKILL');
              });
            } catch {
              setTimeout(watchSeen, 1);
            }
          };
          watchSeen();
          child.on('exit', () => {
            clearInterval(poll);
            watcher?.close();
          });
        },
      });
      if (run.signal === 'SIGKILL') kills++;
      else expect(run.code, run.stderr).toBe(0);
      if (run.code === 0) break;
      // What a kill may leave: runs, a merge's partial output. A new process must not trust any of it.
      await mkdir(join(state, 'seen'), { recursive: true });
      await writeFile(join(state, 'seen', 'run-0'), Buffer.alloc(4096, 0xff));
      await writeFile(join(state, 'seen', 'run-9.merging'), Buffer.alloc(100, 0x01));
    }
    expect(kills).toBeGreaterThan(0);
    const last = await runCli(args('killed', ...SMALL), { cwd: dir });
    expect(last.code, last.stderr).toBe(0);
    const counts = fetches(from);
    expect(counts.size).toBe(pages.length);
    // A kill loses the units in flight (threads = 2, as many parsing and storing): each is fetched again.
    expect([...counts.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(kills * 4);
    expect(await indexed('killed')).toEqual(await indexed('bfs-memory'));
  }, 180_000);

  it('stops with exit 1 and one line when the seen-set cannot be written, nothing admitted lost; the rerun completes', async () => {
    const repo = join(dir, 'blocked');
    // A file where the seen-set's folder goes: its first spill fails, as on a full disk.
    await mkdir(join(repo, '.tarantula'), { recursive: true });
    await writeFile(join(repo, '.tarantula', 'seen'), '');
    const from = server.requests.length;
    const blocked = await runCli(args('blocked', '--log-level', '1', ...SMALL), { cwd: dir });
    expect(blocked.code, blocked.stderr).toBe(1);
    const errors = blocked.stderr.split('\n').filter((l) => l.includes('"level":50'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/"msg":"cannot write the URLs seen to [^"]*: EEXIST[^"]*; stopping \(a rerun once there is room resumes the crawl\)"/);
    const stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8')) as { pending: number; completed: boolean; failures: number };
    expect(stats).toMatchObject({ completed: false, failures: 0 });
    expect(stats.pending).toBeGreaterThan(0);

    await rm(join(repo, '.tarantula', 'seen'));
    const again = await runCli(args('blocked', ...SMALL), { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    const counts = fetches(from);
    expect(counts.size).toBe(pages.length);
    expect(await indexed('blocked')).toEqual(await indexed('bfs-memory'));
  }, 120_000);
});

describe('a seen-set under a file-size limit (ulimit -f)', () => {
  const script = fileURLToPath(new URL('./support/fill-seen-set.ts', import.meta.url));

  // 16 KiB: the first run (24 KiB) fails; 64 KiB: runs and the first merge (48 KiB) are written, the next merge (96 KiB) fails.
  for (const [where, kb, written] of [['writing a run', 16, false], ['merging runs', 64, true]] as const) {
    it(`reports EFBIG once ${where}, keeps every URL, and writes no more`, async () => {
      const { dir, remove } = await tempDir();
      try {
        const run = await runCli(['--import', 'tsx', script, join(dir, 'seen'), '40000'], { command: process.execPath, fileSizeLimitKb: kb, cwd: fileURLToPath(new URL('..', import.meta.url)) });
        expect(run.code, run.stderr).toBe(0);
        const out = JSON.parse(run.stdout) as { failed: string; allSeen: boolean; noneOther: boolean; size: number; spilled: number };
        expect(out).toMatchObject({ failed: 'EFBIG', allSeen: true, noneOther: true, size: 40_000 });
        expect(out.spilled > 0).toBe(written);
      } finally {
        await remove();
      }
    }, 60_000);
  }
});

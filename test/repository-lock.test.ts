import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, readStats } from './support/e2e-web.js';
import { makeTreeSite } from './support/make-site.js';
import { resolveFlags, runCli, type CliResult } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

/** One crawl at a time per repository (SPEC §15): a second command exits 1 at once; a killed crawl's lock does not stay. */

const PAGES = 30;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let server: FixtureServer;
let urls: string[];
/** While true, /p5.html of lock.test is held unanswered: the crawl that asked for it runs on, holding its repository. */
let holding = false;
const held: (() => void)[] = [];

beforeAll(async () => {
  tmp = await tempDir();
  const site = join(tmp.dir, 'site');
  urls = await makeTreeSite(site, ['lock.test'], PAGES);
  server = await startFixtureServer({
    root: site,
    hooks: {
      handle: (req, res, at) => {
        if (!holding || at.path !== '/p5.html') return false;
        held.push(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>p5</title><a href="p11.html">11</a><a href="p12.html">12</a>'));
        return true;
      },
    },
  });
  urls = urls.map((u) => u.replace('lock.test/', `lock.test:${server.port}/`));
});
afterAll(async () => {
  await server?.close();
  await tmp.remove();
});

let runs = 0;
const crawlArgs = (repo: string, agent: string): string[] => [
  '--seed', urls[0]!, ...resolveFlags(['lock.test'], server.port), '--repository', repo, '--log-level', '0',
  '--threads', '2', ...NO_DELAYS, ...NO_SITEMAPS, '--user-agent', agent,
];
const requestsOf = (agent: string): number => server.requests.filter((r) => r.headers['user-agent'] === agent).length;

/** Starts a crawl of the site into `repo` and waits until it is held at /p5.html; returns its process and its end. */
async function startHeld(repo: string): Promise<{ child: ChildProcess; end: Promise<CliResult>; agent: string }> {
  const agent = `tarantula/lock-${++runs}`;
  let child: ChildProcess | undefined;
  holding = true;
  const end = runCli(['crawl', ...crawlArgs(repo, agent)], { cwd: tmp.dir, timeoutMs: 120_000, onSpawn: (c) => (child = c) });
  await until(() => server.requests.some((r) => r.headers['user-agent'] === agent && r.path === '/p5.html'), 60_000);
  return { child: child!, end, agent };
}

function release(): void {
  holding = false;
  for (const answer of held.splice(0)) answer();
}

async function indexUrls(repo: string): Promise<string[]> {
  return (await readFile(join(repo, 'index.txt'), 'utf8')).split('\n').filter((l) => l !== '' && !l.startsWith('\t')).map((l) => l.split('\t')[1]!);
}

describe('a repository in use by a crawl', () => {
  it('refuses a second crawl, a --watch crawl and a pipeline run at once (exit 1, naming the repository and the running crawl); the first loses nothing', async () => {
    const repo = join(tmp.dir, 'busy');
    const first = await startHeld(repo);
    try {
      const conf = join(tmp.dir, 'busy.conf');
      await writeFile(conf, `<crawler-options>\nstarting-points = { "${urls[0]}" };\nrepository = "busy";\n`);
      const seconds: [string, string[]][] = [
        ['crawl', ['crawl', ...crawlArgs(repo, 'tarantula/lock-second')]],
        ['--watch', ['crawl', '--watch', '--period', '1', ...crawlArgs(repo, 'tarantula/lock-watch')]],
        ['run', ['run', 'linkgraph', conf, ...resolveFlags(['lock.test'], server.port), '--log-level', '0', '--user-agent', 'tarantula/lock-run']],
      ];
      for (const [what, args] of seconds) {
        const second = await runCli(args, { cwd: tmp.dir, timeoutMs: 30_000 });
        expect(second.code, `${what}: ${second.stderr}`).toBe(1);
        expect(second.stderr, what).toContain(`the repository ${what === 'run' ? 'busy' : repo} is in use by another crawl (pid ${first.child.pid} on ${hostname()}, started 20`);
        expect(second.stderr.trim().split('\n').filter((l) => l.startsWith('tarantula:')), what).toHaveLength(1);
        expect(second.stdout, what).toBe('');
      }
      for (const agent of ['tarantula/lock-second', 'tarantula/lock-watch', 'tarantula/lock-run']) expect(requestsOf(agent), agent).toBe(0);
      // The first crawl has no stats.json yet: the report says it runs, not that it was killed.
      const report = await runCli(['report', repo], { cwd: tmp.dir, timeoutMs: 30_000 });
      expect(report.code, report.stderr).toBe(1);
      expect(report.stderr).toContain(`${repo} has a crawl running (pid ${first.child.pid} on ${hostname()}, started 20`);
    } finally {
      release();
    }
    const done = await first.end;
    expect(done.code, done.stderr).toBe(0);
    const indexed = await indexUrls(repo);
    expect(indexed.sort()).toEqual([...urls].sort());
    expect(await readStats(repo)).toMatchObject({ documents: PAGES, failures: 0, completed: true });
  });

  it('is taken by the next run once the crawl holding it was killed (SIGKILL): a crashed crawl leaves no lock behind', async () => {
    const repo = join(tmp.dir, 'killed');
    const first = await startHeld(repo);
    first.child.kill('SIGKILL');
    expect((await first.end).signal).toBe('SIGKILL');
    release();
    const again = await runCli(['crawl', ...crawlArgs(repo, `tarantula/lock-${++runs}`)], { cwd: tmp.dir, timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect((await indexUrls(repo)).sort()).toEqual([...urls].sort());
  });

  it('still lets `tarantula report` read it while a recrawl runs', async () => {
    const repo = join(tmp.dir, 'reported');
    const once = await runCli(['crawl', ...crawlArgs(repo, `tarantula/lock-${++runs}`)], { cwd: tmp.dir, timeoutMs: 120_000 });
    expect(once.code, once.stderr).toBe(0);
    const recrawl = await startHeld(repo);
    try {
      const report = await runCli(['report', repo], { cwd: tmp.dir, timeoutMs: 60_000 });
      expect(report.code, report.stderr).toBe(0);
      expect(report.stderr).toContain('report written to');
    } finally {
      release();
    }
    expect((await recrawl.end).code).toBe(0);
  });
});

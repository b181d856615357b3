import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT, closedPort, logLines } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const PASSWORD = 'redis-Pw-8431';
const SEED_PASSWORD = 'seed-Pw-2719';
const HOSTS = ['secret-0.test', 'secret-1.test', 'secret-2.test', 'secret-3.test'];
const PAGES = 15;

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('grid', { root: HOSTILE_ROOT, hooks: gridPages(HOSTS, PAGES, 20), extraHosts: HOSTS });
  redis = await startRedis(PASSWORD);
  tmp = await tempDir();
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

const withPassword = (port: number, password: string): string => `redis://:${password}@127.0.0.1:${port}/0`;
const shown = (port: number): string => `redis://:***@127.0.0.1:${port}/0`;
const start = (repository: string, url: string, flags: readonly string[] = []): string[] => [
  'crawl', '--seed', 'http://nowhere.test/', '--repository', join(tmp.dir, repository), '--frontier', url, '--workers', '2', ...flags,
];

describe('the password of a Redis URL, and of a seed, is never printed', { timeout: 60_000 }, () => {
  it('keeps them out of the log, stats.json and the workers’ command lines (the report: render-report.spec.ts)', async () => {
    const repository = join(tmp.dir, 'secret');
    const logFile = join(tmp.dir, 'secret.log');
    const cmdlines: string[] = [];
    const seed = web.url(HOSTS[0]!, '/0').replace('http://', `http://me:${SEED_PASSWORD}@`);
    const run = await runCli(
      [
        'crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--seed', seed, '--scope', 'free-spanning', '--repository', repository, '--frontier', redis.url,
        '--workers', '2', '--threads', '2', '--log-level', '1', '--log-file', logFile, ...web.resolve(),
      ],
      {
        cwd: tmp.dir,
        onSpawn: (child: ChildProcess) => {
          // Each worker's command line, read as soon as the log announces it, while it runs.
          const timer = setInterval(() => {
            const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
            const started = logLines(log.slice(0, log.lastIndexOf('\n') + 1)).filter((l) => l.msg === 'worker started');
            for (const line of started.slice(cmdlines.length)) cmdlines.push(readCmdline(line.pid as number));
          }, 2);
          child.on('exit', () => clearInterval(timer));
        },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const log = await readFile(logFile, 'utf8');
    expect(log).toContain(shown(redis.port));
    const pages = parseSeedIndex(await readFile(join(repository, 'index.txt'), 'utf8'));
    // Every page, and those of the seed's host once more under the seed's userinfo (another URL).
    expect(new Set(pages.map((p) => p.url.replace(`me:${SEED_PASSWORD}@`, ''))).size).toBe(HOSTS.length * PAGES);
    expect(cmdlines).toHaveLength(2);
    for (const cmdline of cmdlines) expect(cmdline).toContain(shown(redis.port));
    const outputs: [string, string][] = [
      ['stderr', run.stderr],
      ['log file', log],
      ['stats.json', await readFile(join(repository, 'stats.json'), 'utf8')],
      ...cmdlines.map((c, i): [string, string] => [`worker ${i} command line`, c]),
    ];
    for (const slot of await readdir(join(repository, '.tarantula', 'workers'))) outputs.push([`worker ${slot} stats.json`, await readFile(join(repository, '.tarantula', 'workers', slot, 'stats.json'), 'utf8')]);
    for (const [name, text] of outputs) {
      expect(text, name).not.toContain(PASSWORD);
      expect(text, name).not.toContain(SEED_PASSWORD);
    }
  });

  it('says that authentication failed for a wrong password, or none (exit 1), and shows neither', async () => {
    const wrong = await runCli(start('wrong', withPassword(redis.port, 'wrong-Pw-5572')), { cwd: tmp.dir });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`authentication failed at the Redis frontier at ${shown(redis.port)}: wrong user name or password`);
    expect(wrong.stderr).not.toContain('wrong-Pw-5572');
    const none = await runCli(start('none', `redis://127.0.0.1:${redis.port}/0`), { cwd: tmp.dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`authentication failed at the Redis frontier at redis://127.0.0.1:${redis.port}/0: it needs a password`);
  });

  it('names a Redis that cannot be reached without its password', async () => {
    const port = await closedPort();
    const run = await runCli(start('down', withPassword(port, PASSWORD)), { cwd: tmp.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot reach the Redis frontier at ${shown(port)}`);
    expect(run.stderr).not.toContain(PASSWORD);
  });
});

/** A process's command line, its arguments joined by spaces (`ps` shows the same). */
function readCmdline(pid: number): string {
  // Synchronous: the worker may be gone by the next tick of a fast crawl.
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
}

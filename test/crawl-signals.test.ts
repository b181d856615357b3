import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endlessPages } from './support/endless-web.js';
import { readStats, startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

/** Each page of the endless web answers after this long, so the crawl is busy when the signal comes. */
const PAGE_MS = 150;

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
  web = await startWeb('endless', { root: tmp.dir, hooks: endlessPages('slow.test', PAGE_MS), extraHosts: ['slow.test'] });
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** Crawls the endless web until `pages` pages were answered, then sends `signal`. */
async function interrupt(signal: NodeJS.Signals, name: string, pages = 4) {
  const repo = join(tmp.dir, name);
  let child: ChildProcess | undefined;
  const agent = `tarantula/e2e-${signal}`;
  const mine = () => web.server.requests.filter((r) => r.headers['user-agent'] === agent);
  const answered = () => mine().filter((r) => r.status === 200).length;
  const args = ['--seed', web.url('slow.test'), '--threads', '4', '--max-per-host', '4', '--repository', repo, '--log-level', '0', '--user-agent', agent];
  const done = web.crawl(args, { cwd: tmp.dir, onSpawn: (c) => (child = c) });
  await until(() => answered() >= pages);
  const sentAt = Date.now();
  child!.kill(signal);
  const result = await done;
  const exitMs = Date.now() - sentAt;
  // requests already on their way when the signal came may still arrive; none may start well after it
  const startedAfter = mine().filter((r) => r.start > sentAt + 300).length;
  return { ...result, repo, exitMs, startedAfter, answered: answered() };
}

describe('a signal in the middle of a crawl', () => {
  it.concurrent.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s stops fetching, flushes the index and stats, and exits %i', async (signal, status) => {
    const run = await interrupt(signal, signal);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(status);
    expect(run.exitMs).toBeLessThan(5_000);
    expect(run.startedAfter).toBe(0);

    const text = await readFile(join(run.repo, 'index.txt'), 'utf8');
    const records = parseSeedIndex(text); // throws on a half record
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records.length).toBeLessThanOrEqual(run.answered);
    for (const rec of records) expect(rec.title).toMatch(/^Page \d+$/);

    const stats = await readStats(run.repo);
    expect(stats.documents).toBeGreaterThanOrEqual(records.length);
  });
});

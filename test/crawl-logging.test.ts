import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/lists, crawled with the assignment's lists; pages fetched, and links dropped with their
 * reason. Level 1 (a line per fetched page) is checked by crawl-example-conf, whose Crawler.conf sets it.
 */
const FETCHED = ['/page.html', '/PAGE2.HTM', '/doc.pdf', '/news'];
const DROPPED: [string, string][] = [['/notes.txt', 'not-accepted'], ['/draft.tmp', 'rejected'], ['/dir/?page=2', 'rejected']];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let conf: string;
beforeAll(async () => {
  web = await startWeb('lists');
  tmp = await tempDir();
  conf = join(tmp.dir, 'lists.conf');
  await writeFile(conf, '<crawler-options>\naccept-list = {".*\\.[hH][tT][mM][lL]?$", ".*\\.[pP][dD][fF]$" };\nReject-list = { ".*\\.[tT][mM][pP]\\.?.{0,4}$", ^#.*,.*\\?.* };\n');
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** Crawls at `level` into a log file; the log's lines as text. */
async function logAt(level: number): Promise<string[]> {
  const log = join(tmp.dir, `level-${level}.log`);
  const args = [conf, '--seed', web.url('lists.test', '/start.php'), '--repository', join(tmp.dir, `repo-${level}`), '--log-level', String(level), '--log-file', log];
  const run = await web.crawl(args, { cwd: tmp.dir });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe('');
  return (await readFile(log, 'utf8')).split('\n').filter((l) => l !== '');
}

const mentioning = (lines: string[], path: string): string[] => lines.filter((l) => l.includes(`"${web.url('lists.test', path)}"`));

describe.concurrent('log-level and log-file', () => {
  it('0: the essentials only, no line per page', async () => {
    const lines = await logAt(0);
    expect(lines.length).toBeGreaterThanOrEqual(2); // the start and the end summary
    for (const path of FETCHED) expect(mentioning(lines, path)).toEqual([]);
  });

  it('2: every decision, with the reason each URL was filtered out', async () => {
    const lines = await logAt(2);
    for (const path of FETCHED) expect(mentioning(lines, path).length, path).toBeGreaterThanOrEqual(1);
    for (const [path, reason] of DROPPED) expect(mentioning(lines, path).join('\n'), path).toContain(reason);
  });
});

describe.concurrent('a log-file that cannot be written', () => {
  it('ends the crawl before it starts with one line naming the file: through a regular file, and under /proc (where mkdir -p spins)', async () => {
    const file = join(tmp.dir, 'a-file');
    await writeFile(file, 'not a folder\n');
    for (const [log, cause] of [[join(file, 'crawl.log'), 'is not a folder'], ['/proc/tarantula-no-such-dir/crawl.log', 'ENOENT']] as const) {
      const run = await web.crawl([conf, '--seed', web.url('lists.test', '/start.php'), '--repository', join(tmp.dir, 'repo-bad-log'), '--log-file', log], { cwd: tmp.dir, timeoutMs: 20_000 });
      expect(run.signal, 'killed by the timeout').toBeNull();
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.startsWith(`tarantula: cannot write the log file ${log}: `), run.stderr).toBe(true);
      expect(run.stderr).toContain(cause);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.requests).toEqual([]);
    }
  });

  it('is made, with its folders, when it is not there', async () => {
    const log = join(tmp.dir, 'logs', 'deep', 'crawl.log');
    const run = await web.crawl([conf, '--seed', web.url('lists.test', '/start.php'), '--repository', join(tmp.dir, 'repo-new-log'), '--log-file', log], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(log, 'utf8')).toContain('"msg":"crawl started"');
  });
});

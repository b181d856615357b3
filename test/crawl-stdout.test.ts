import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ROOT } from '../src/demo/demo-web.js';
import { endlessPages } from './support/endless-web.js';
import { startWeb, writeDemoConf, type E2eWeb } from './support/e2e-web.js';
import { parseJsonl, parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let conf: string;
beforeAll(async () => {
  web = await startWeb('demo', { root: DEMO_ROOT, hooks: endlessPages('slow.test', 100), extraHosts: ['slow.test'] });
  tmp = await tempDir();
  conf = await writeDemoConf(tmp.dir, web.server.port);
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

describe.concurrent('--index - (standard output)', () => {
  it('jsonl: stdout holds only the records, one JSON object a line; the logs go to stderr', async () => {
    const repo = join(tmp.dir, 'jsonl');
    const { code, stdout, stderr } = await web.crawl([conf, '--repository', repo, '--index', '-', '--format', 'jsonl', '--log-level', '1', '--log-file', 'screen'], { cwd: tmp.dir });
    expect(code, stderr).toBe(0);
    const objects = parseJsonl(stdout); // throws on any line that is not JSON
    const index = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
    expect(objects.map((o) => o.url)).toEqual(index.map((r) => r.url));
    expect(objects.every((o) => typeof o.md5 === 'string' && !('msg' in o) && !('level' in o))).toBe(true);

    for (const rec of index) expect(stderr).toContain(`"${rec.url}"`); // log-level 1: a line per fetched page
  });

  it('seed: stdout is index.txt, byte for byte', async () => {
    const repo = join(tmp.dir, 'seed');
    const { code, stdout, stderr } = await web.crawl([conf, '--repository', repo, '--index', '-', '--log-level', '1'], { cwd: tmp.dir });
    expect(code, stderr).toBe(0);
    expect(stdout.length).toBeGreaterThan(0);
    expect(stdout).toBe(await readFile(join(repo, 'index.txt'), 'utf8'));
  });

  it('a reader that goes away (crawl … | head -1) ends the crawl with exit status 0, and fetching stops', async () => {
    const repo = join(tmp.dir, 'pipe');
    let closedAt = 0;
    const agent = 'tarantula/e2e-pipe';
    const mine = () => web.server.requests.filter((r) => r.headers['user-agent'] === agent);
    const args = ['--seed', web.url('slow.test'), '--repository', repo, '--index', '-', '--format', 'jsonl', '--log-level', '0', '--user-agent', agent];
    const run = await web.crawl(args, {
      cwd: tmp.dir,
      onSpawn: (child) =>
        child.stdout?.once('data', () => {
          closedAt = Date.now();
          child.stdout?.destroy();
        }),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(closedAt).toBeGreaterThan(0);
    expect(Date.now() - closedAt).toBeLessThan(5_000);
    // the next record written finds the pipe closed; no request may start long after that
    expect(mine().filter((r) => r.start > closedAt + 1_000)).toEqual([]);
  });
});

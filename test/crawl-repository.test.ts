import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { tempDir } from './support/temp-dir.js';

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('order');
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

describe.concurrent('a repository that cannot be written', () => {
  it('under a regular file: exits 1 with a message naming the repository, and crawls nothing', async () => {
    const file = join(tmp.dir, 'a-file');
    await writeFile(file, 'not a folder\n');
    const repo = join(file, 'repo');
    const run = await web.crawl(['--seed', web.url('tree.test'), '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(repo);
    expect(run.stderr).toMatch(/not writable|cannot write|ENOTDIR/i);
    expect(run.stdout).toBe('');
    expect(run.requests).toEqual([]);
  });

  it("under /proc, where no folder can be made: exits 1 at once (Node's own mkdir -p would spin for ever)", async () => {
    const repo = '/proc/tarantula-no-such-dir/repo';
    const run = await web.crawl(['--seed', web.url('tree.test'), '--repository', repo, '--log-level', '0'], { cwd: tmp.dir, timeoutMs: 20_000 });
    expect(run.signal, 'killed by the timeout').toBeNull();
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`the repository ${repo} is not writable: ENOENT`);
    expect(run.requests).toEqual([]);
  });

  it('named by Crawler.conf: the same', async () => {
    const file = join(tmp.dir, 'another-file');
    await writeFile(file, '');
    const conf = join(tmp.dir, 'repository.conf');
    await writeFile(conf, `<crawler-options>\nstarting-points = { "${web.url('tree.test')}" };\nrepository = "another-file/sub/repo";\n`);
    const run = await web.crawl([conf, '--log-level', '0'], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('another-file/sub/repo');
    expect(run.requests).toEqual([]);
  });
});

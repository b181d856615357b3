import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../src/demo/fixture-server.js';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { makeTreeSite, writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
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

/**
 * Should the refusal ever fail, a log file that cannot be opened ends the command (exit 1) before it
 * touches the repository: a test run never writes into / or /etc.
 */
const SAFETY = ['--log-file', '/proc/tarantula-no-such-dir/crawl.log'];

describe.concurrent('a repository that is the root, a system folder or the home folder', () => {
  it('is refused with exit 2 naming the flag, before any request, whether named by --repository or through a link', async () => {
    const home = join(tmp.dir, 'home');
    await mkdir(home);
    const rootLink = join(tmp.dir, 'to-root');
    await symlink('/', rootLink);
    for (const [repo, why] of [
      ['/', 'the root folder'],
      ['/etc', 'the system folder /etc'],
      ['/usr/', 'the system folder /usr'],
      ['/proc/tarantula-no-such-dir/repo', "under /proc, the kernel's own files"],
      ['/sys/kernel', "under /sys, the kernel's own files"],
      [rootLink, 'the root folder'],
      [home, `your home folder (${home})`],
    ] as const) {
      const run = await web.crawl(['--seed', web.url('tree.test'), '--repository', repo, '--log-level', '0', ...SAFETY], { cwd: tmp.dir, env: { HOME: home }, timeoutMs: 20_000 });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(`tarantula: --repository: "${repo}" is ${why}, refused for repository: a crawl writes its mirror (a folder per host), index.txt, stats.json and .tarantula into it; name a folder of its own, e.g. ./repository\n`);
      expect(run.requests).toEqual([]);
    }
    expect(await readdir(home)).toEqual([]);
  });

  it('named by Crawler.conf, relative to the current folder: exit 2 with FILE:LINE', async () => {
    const conf = join(tmp.dir, 'root.conf');
    await writeFile(conf, `<crawler-options>\nstarting-points = { "${web.url('tree.test')}" };\n\nrepository = "../../../../../../../../..";\n`);
    const run = await web.crawl([conf, '--log-level', '0', ...SAFETY], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`tarantula: ${conf}:4: "../../../../../../../../.." is the root folder, refused for repository`);
    expect(run.requests).toEqual([]);
  });

  it('allows a folder under a system folder that is no kernel folder (/var/tmp/NAME)', async () => {
    const repo = join('/var/tmp', `tarantula-test-${process.pid}-${Date.now()}`);
    try {
      const run = await web.crawl(['--seed', web.url('tree.test'), '--repository', repo, '--log-level', '0', '--max-pages', '1'], { cwd: tmp.dir });
      expect(run.code, run.stderr).toBe(0);
      expect((await stat(join(repo, 'index.txt'))).isFile()).toBe(true);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });
});

describe('a repository that fills up mid-crawl', () => {
  it('stops the crawl with exit 1 and a line saying so, the page it could not store pending; a rerun with room stores it', async () => {
    const site = join(tmp.dir, 'filling-web');
    const urls = await makeTreeSite(site, ['fill.test'], 30);
    // One page larger than the file-size limit below: storing it fails with EFBIG, as on a full disk.
    await writePage(site, 'fill.test', 'p7.html', `<!doctype html><title>big</title><a href="p15.html">15</a><a href="p16.html">16</a><p>${'x'.repeat(80_000)}`);
    const server = await startFixtureServer({ root: site });
    try {
      const repo = join(tmp.dir, 'filling');
      const args = ['crawl', '--seed', `http://fill.test:${server.port}/p0.html`, ...resolveFlags(['fill.test'], server.port), '--repository', repo,
        '--log-level', '0', '--threads', '1', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0'];
      const full = await runCli(args, { cwd: tmp.dir, fileSizeLimitKb: 60 });
      expect(full.code, full.stderr).toBe(1);
      expect(full.stderr).toMatch(new RegExp(`"msg":"the repository ${repo} can take no more: EFBIG[^"]*; stopping`));
      const stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8')) as { pending: number; completed: boolean; failures: number };
      expect(stats).toMatchObject({ completed: false, failures: 0 });
      expect(stats.pending).toBeGreaterThan(0);

      const again = await runCli(args, { cwd: tmp.dir });
      expect(again.code, again.stderr).toBe(0);
      const index = await readFile(join(repo, 'index.txt'), 'utf8');
      for (const url of urls) expect(index, url).toContain(url.replace('fill.test/', `fill.test:${server.port}/`));
      expect((await stat(join(repo, `fill.test+${server.port}`, 'p7.html'))).size).toBeGreaterThan(80_000);
    } finally {
      await server.close();
    }
  });
});

import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseEdges, parseSeedIndex } from './support/index-files.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { until } from './support/until.js';

// Seeds from stdin and files (issue 17): real pipes into the built CLI, the `order` web on loopback.
let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
  web = await startWeb('order');
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const TREE = ['/', '/a/', '/b/', '/c.html', '/a/1.html', '/a/2.html', '/b/1.html', '/a/1/deep.html'];
const CROSS = ['/', '/a.html', '/b.html', '/c.html'];
const pagesOf = (host: string, paths: readonly string[]) => paths.map((p) => `${host}${p}`);
const all = () => [...pagesOf('tree.test', TREE), ...pagesOf('cross.test', CROSS)].sort();
/** Seeds are always fetched (SPEC §4); every link is rejected. */
const ONLY_SEEDS = ['--reject-list', '.'];
const indexed = (stdout: string) => parseSeedIndex(stdout).map((r) => r.url).sort();

/** `tarantula crawl -i - ARGS` in a folder without a Crawler.conf, stdin written by `write` (which must end it, or not). */
function crawlFromStdin(args: readonly string[], write: (stdin: NodeJS.WritableStream, child: ChildProcess) => void | Promise<void>) {
  return web.crawl(['-i', '-', '--index', '-', '--log-level', '0', ...args], {
    cwd: tmp.dir,
    stdin: 'pipe',
    onSpawn: (child) => void write(child.stdin!, child),
  });
}

describe('seeds from stdin', () => {
  it('crawls two URLs piped in, each with the pages it leads to (its host joins the scope), and exits 0', async () => {
    const run = await crawlFromStdin(['--repository', join(tmp.dir, 'two')], (stdin) => {
      stdin.end(`${web.url('tree.test')}\n  ${web.url('cross.test')}  \n`);
    });
    expect(run.code, run.stderr).toBe(0);
    expect(indexed(run.stdout)).toEqual(all().map((p) => web.url(p.slice(0, p.indexOf('/')), p.slice(p.indexOf('/')))).sort());
    expect([...run.pages].sort()).toEqual(all());
  });

  it('skips a bad line in the middle with a warning naming its line, and crawls the others', async () => {
    const lines = ['# seeds', web.url('tree.test', '/c.html'), '', '/not/absolute', 'ftp://tree.test/', web.url('cross.test', '/c.html')];
    const run = await crawlFromStdin(['--repository', join(tmp.dir, 'bad'), ...ONLY_SEEDS], (stdin) => {
      stdin.end(lines.join('\n'));
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('stdin:4: \\"/not/absolute\\" is not an absolute http(s) URL; skipped');
    expect(run.stderr).toContain('stdin:5: \\"ftp://tree.test/\\" is not an absolute http(s) URL; skipped');
    expect([...run.pages].sort()).toEqual([...pagesOf('cross.test', ['/c.html']), ...pagesOf('tree.test', ['/c.html'])]);
  });

  it('admits a URL that comes while the crawl runs, then completes when stdin closes', async () => {
    let firstDone = false;
    const before = web.server.requests.length;
    const run = await crawlFromStdin(['--repository', join(tmp.dir, 'later')], async (stdin) => {
      stdin.write(`${web.url('tree.test')}\n`);
      // the first seed's whole site is crawled while stdin stays open: the crawl waits for more
      await until(() => web.server.requests.slice(before).filter((r) => r.host === 'tree.test' && r.path !== '/robots.txt').length >= TREE.length);
      await sleep(200);
      firstDone = true;
      stdin.end(`${web.url('cross.test')}\n`);
    });
    expect(run.code, run.stderr).toBe(0);
    expect(firstDone).toBe(true);
    expect(indexed(run.stdout)).toEqual(all().map((p) => web.url(p.slice(0, p.indexOf('/')), p.slice(p.indexOf('/')))).sort());
    // cross.test came last, in scope although no seed named it when the crawl began
    expect([...run.pages.slice(TREE.length)].sort()).toEqual(pagesOf('cross.test', CROSS).sort());
  });

  it('runs until SIGINT while stdin stays open (exit 130), and the same command without -i finishes the rest', async () => {
    const repo = join(tmp.dir, 'tail');
    let child: ChildProcess | undefined;
    const slow = ['--repository', repo, '--min-delay', '400', '--max-delay', '400'];
    const first = crawlFromStdin(slow, (stdin, c) => {
      child = c;
      stdin.write(`${web.url('tree.test')}\n`); // and never closed, as tail -f
    });
    // one host, 400 ms between its requests: the signal comes while none is in flight
    const before = web.server.requests.length;
    await until(() => web.server.requests.slice(before).filter((r) => r.status === 200 && r.path !== '/robots.txt').length >= 3);
    child!.kill('SIGINT');
    const stopped = await first;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.pages.length).toBeLessThan(TREE.length);

    // no seed, no input: the journal has them, and the scope tree.test gave
    const rerun = await web.crawl(['--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect([...stopped.pages, ...rerun.pages].sort()).toEqual(pagesOf('tree.test', TREE).sort());
  });
});

describe('seeds from files', () => {
  it('resumed with the same file given again: the lines read before are duplicates, nothing is fetched twice or lost', async () => {
    const repo = join(tmp.dir, 'same-file');
    const list = join(tmp.dir, 'same.txt');
    await writeFile(list, `${web.url('tree.test')}\n${web.url('tree.test', '/b/1.html')}\n`);
    const args = ['-i', list, '--repository', repo, '--min-delay', '400', '--max-delay', '400', '--log-level', '0'];
    let child: ChildProcess | undefined;
    const before = web.server.requests.length;
    const first = web.crawl(args, { cwd: tmp.dir, onSpawn: (c) => (child = c) });
    await until(() => web.server.requests.slice(before).filter((r) => r.status === 200 && r.path !== '/robots.txt').length >= 3);
    child!.kill('SIGINT');
    const stopped = await first;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.pages.length).toBeLessThan(TREE.length);
    const rerun = await web.crawl(args, { cwd: tmp.dir });
    expect(rerun.code, rerun.stderr).toBe(0);
    // the seeds read again are dropped by the seen-set: fetched twice, they would be in both lists
    expect([...stopped.pages, ...rerun.pages].sort()).toEqual(pagesOf('tree.test', TREE).sort());
  });

  it('takes the index of an earlier crawl as its seeds: seed format, jsonl, and the seed format through cut -f2', async () => {
    const first = await web.crawl(['--seed', web.url('tree.test'), '--repository', join(tmp.dir, 'old'), '--index', join(tmp.dir, 'old.jsonl'), '--format', 'jsonl', '--log-level', '0'], { cwd: tmp.dir });
    expect(first.code, first.stderr).toBe(0);
    // what `cut -f2 old/index.txt` gives: the URLs, and `@LINK ANCHOR` for the link lines
    const cut = join(tmp.dir, 'cut.txt');
    const seedIndex = await readFile(join(tmp.dir, 'old', 'index.txt'), 'utf8');
    await writeFile(cut, seedIndex.split('\n').map((line) => line.split('\t')[1] ?? line).join('\n'));
    for (const [name, input] of [['seed', join(tmp.dir, 'old', 'index.txt')], ['jsonl', join(tmp.dir, 'old.jsonl')], ['cut', cut]]) {
      const again = await web.crawl(['-i', input!, ...ONLY_SEEDS, '--repository', join(tmp.dir, `again-${name}`), '--log-level', '0'], { cwd: tmp.dir });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('skipped');
      expect([...again.pages].sort()).toEqual(pagesOf('tree.test', TREE).sort());
    }
  });

  it('reads several files and stdin in order, adding to the seeds of --seed; the same file again adds nothing new', async () => {
    const list = join(tmp.dir, 'list.txt');
    await writeFile(list, `${web.url('tree.test', '/a/1.html')}\n${web.url('tree.test', '/b/1.html')}\n`);
    const repo = join(tmp.dir, 'files');
    const args = ['--seed', web.url('tree.test', '/c.html'), '-i', list, '--input-file', '-', ...ONLY_SEEDS, '--repository', repo, '--threads', '1'];
    const run = await crawlFromStdin(args, (stdin) => {
      stdin.end(`${web.url('cross.test', '/b.html')}\n`);
    });
    expect(run.code, run.stderr).toBe(0);
    // one host's requests keep the order of admission (across hosts, order is the frontier's)
    expect(run.pages.filter((p) => p.startsWith('tree.test/'))).toEqual(pagesOf('tree.test', ['/c.html', '/a/1.html', '/b/1.html']));
    expect(run.pages.filter((p) => p.startsWith('cross.test/'))).toEqual(pagesOf('cross.test', ['/b.html']));
    // a recrawl with the same list: its URLs are known pages already, each requested once (conditionally)
    const again = await web.crawl(['-i', list, ...ONLY_SEEDS, '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
    expect(again.code, again.stderr).toBe(0);
    expect([...again.pages].sort()).toEqual([...run.pages].sort());
  });

  it('stops before any request when an input file is missing, naming it (exit 2)', async () => {
    const before = web.server.requests.length;
    const run = await runCli(['crawl', '--seed', web.url('tree.test'), '-i', 'no-such-urls.txt', ...resolveFlags(web.hosts, web.server.port)], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('tarantula: no-such-urls.txt: cannot read the input file: ENOENT');
    const dir = await runCli(['crawl', '-i', tmp.dir, '--repository', join(tmp.dir, 'dir')], { cwd: tmp.dir });
    expect(dir.code, dir.stderr).toBe(2);
    expect(dir.stderr).toContain('cannot read the input file: it is a directory');
    expect(web.server.requests.length).toBe(before);
  });

  it('says to use -i - when --seed - is tried', async () => {
    const run = await runCli(['crawl', '--seed', '-'], { cwd: tmp.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('to read URLs from stdin, use -i - (--input-file -)');
  });
});

describe('pipelines', () => {
  it('tarantula run PIPELINE -i - streams the same seeds into the pipeline', async () => {
    const run = await runCli(
      ['run', 'linkgraph', '-i', '-', '--repository', join(tmp.dir, 'graph'), '--min-delay', '0', '--delay-factor', '0', '--max-delay', '0', '--log-level', '0', ...resolveFlags(web.hosts, web.server.port)],
      { cwd: tmp.dir, stdin: 'pipe', onSpawn: (child) => child.stdin!.end(`${web.url('tree.test')}\n${web.url('cross.test')}\n`) },
    );
    expect(run.code, run.stderr).toBe(0);
    const from = new Set(parseEdges(run.stdout).map(([source]) => source));
    expect(from).toContain(web.url('tree.test'));
    expect(from).toContain(web.url('cross.test'));
  });
});

import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { parseSeedIndex } from './support/index-files.js';
import { makeTreeSite, writePage } from './support/make-site.js';
import { resolveFlags, runCli, type CliOptions } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const run$ = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const HOSTS = ['a.projects.test', 'b.projects.test'];
const PDFS = 12;

/**
 * Pipeline files where users write them: tarantula packed (`npm pack`, what `npm install tarantula`
 * unpacks) into a project made with `npm init -y` (CommonJS by default), an ES module project, and
 * a folder with no package.json at all. The packed package's own dependencies are this checkout's
 * (the versions of package-lock.json), so the test needs no registry.
 */
describe('a pipeline file in a user\'s own folder', { timeout: 120_000 }, () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;
  let bin: string;
  let titles: string;

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    await makeTreeSite(join(dir, 'web'), HOSTS, 6);
    const pdfs = Array.from({ length: PDFS }, (_, i) => `<a href="paper${i}.pdf">paper ${i}</a>`).join('');
    await writePage(join(dir, 'web'), HOSTS[0]!, 'p5.html', `<title>a5</title>${pdfs}`);
    // Each PDF a little late: the reader is gone before the next PDF's line is written, however loaded the machine.
    server = await startFixtureServer({
      root: join(dir, 'web'),
      hooks: {
        handle: (_req, res, at) => {
          const pdf = /^\/paper(\d+)\.pdf$/.exec(at.path);
          if (!pdf) return false;
          setTimeout(() => res.writeHead(200, { 'content-type': 'application/pdf' }).end(`%PDF-1.4\n% paper ${pdf[1]}\n%%EOF\n`), 300);
          return true;
        },
      },
    });

    const { stdout } = await run$('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT });
    const tarball = join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    const project = join(dir, 'cjs');
    await mkdir(join(project, 'node_modules', 'tarantula'), { recursive: true });
    await run$('npm', ['init', '-y'], { cwd: project });
    await run$('tar', ['-xzf', tarball, '-C', join(project, 'node_modules', 'tarantula'), '--strip-components', '1']);
    await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules', 'tarantula', 'node_modules'));
    bin = join(project, 'node_modules', 'tarantula', 'bin', 'tarantula');

    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    titles = /```ts\n(\/\/ pipelines\/titles\.ts[\s\S]*?)```/.exec(readme)![1]!;
    await mkdir(join(dir, 'esm'));
    await writeFile(join(dir, 'esm', 'package.json'), '{ "type": "module" }\n');
    await mkdir(join(dir, 'empty'));
    for (const folder of ['cjs', 'esm', 'empty']) await writeFile(join(dir, folder, 'titles.ts'), titles);
  }, 120_000);
  afterAll(async () => {
    await server.close();
    await remove();
  });

  const tarantula = (folder: string, file: string, repo: string, opts: CliOptions = {}) =>
    runCli(
      ['run', file, '--seed', `http://${HOSTS[0]}:${server.port}/p0.html`, ...resolveFlags(HOSTS, server.port), '--repository', join(dir, repo),
        '--scope', 'free-spanning', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0'],
      { cwd: join(dir, folder), command: bin, ...opts },
    );

  it.each(['cjs', 'esm', 'empty'])('runs the README\'s titles.ts in a %s folder: a title line for every page', async (folder) => {
    const { code, stdout, stderr } = await tarantula(folder, './titles.ts', `r-${folder}`);
    expect(code, stderr).toBe(0);
    const pages = parseSeedIndex(await readFile(join(dir, `r-${folder}`, 'index.txt'), 'utf8')).filter((r) => r.title !== '-');
    expect(pages.length).toBe(12);
    expect(stdout.trimEnd().split('\n').sort()).toEqual(pages.map((r) => `${r.url}\t${r.title}`).sort());
  });

  it('a file that cannot load gets one line naming it and the cause, exit 2', async () => {
    await writeFile(join(dir, 'empty', 'broken.ts'), "import { crawl } from 'tarantula';\nexport default (ctx => {;\n");
    await writeFile(join(dir, 'empty', 'missing.ts'), "import x from 'no-such-package';\nexport default x;\n");
    const broken = await tarantula('empty', './broken.ts', 'r-broken');
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim().split('\n')).toEqual([expect.stringMatching(/broken\.ts: cannot load the pipeline: .*broken\.ts:3:0: ERROR: /)]);
    const missing = await tarantula('empty', './missing.ts', 'r-missing');
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([expect.stringMatching(/missing\.ts: cannot load the pipeline: Cannot find module 'no-such-package'/)]);
  });

  it('`tarantula run pdfs | head -1` exits 0, and the same command then resumes to the end', async () => {
    const first = await tarantula('cjs', 'pdfs', 'r-pdfs', { onSpawn: (child) => child.stdout?.once('data', () => child.stdout?.destroy()) });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('"reason":"stdout closed"');
    expect(first.stderr).not.toMatch(/EPIPE|\n\s+at /);
    const second = await tarantula('cjs', 'pdfs', 'r-pdfs');
    expect(second.code, second.stderr).toBe(0);
    const stats = JSON.parse(await readFile(join(dir, 'r-pdfs', 'stats.json'), 'utf8')) as { completed: boolean; pending: number };
    expect(stats).toMatchObject({ completed: true, pending: 0 });
    const urls = parseSeedIndex(await readFile(join(dir, 'r-pdfs', 'index.txt'), 'utf8')).map((r) => r.url);
    expect(urls.length).toBe(12 + PDFS);
    expect(new Set(urls).size).toBe(urls.length);
  });
});

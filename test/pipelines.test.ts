import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { makeTreeSite } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOSTS = ['a.pipes.test', 'b.pipes.test'];

describe('tarantula run PIPELINE', () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    await makeTreeSite(join(dir, 'web'), HOSTS, 6);
    await writeFile(join(dir, 'web', HOSTS[0]!, 'p5.html'), '<title>a5</title><a href="paper.pdf">the paper</a>');
    await writeFile(join(dir, 'web', HOSTS[0]!, 'paper.pdf'), '%PDF-1.4\n% a tiny pdf\n%%EOF\n');
    server = await startFixtureServer({ root: join(dir, 'web') });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  const run = (pipeline: string, repo: string, env?: NodeJS.ProcessEnv) =>
    runCli(
      ['run', pipeline, '--seed', `http://${HOSTS[0]}:${server.port}/p0.html`, ...resolveFlags(HOSTS, server.port), '--repository', join(dir, repo),
        '--scope', 'free-spanning', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0'],
      { cwd: dir, ...(env ? { env } : {}) },
    );

  it('runs pipelines/default.ts, which writes the same index as `crawl`', async () => {
    const viaRun = await run('default', 'r-default');
    expect(viaRun.code).toBe(0);
    const viaCrawl = await runCli(
      ['crawl', '--seed', `http://${HOSTS[0]}:${server.port}/p0.html`, ...resolveFlags(HOSTS, server.port), '--repository', join(dir, 'r-crawl'),
        '--scope', 'free-spanning', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0'],
      { cwd: dir },
    );
    expect(viaCrawl.code).toBe(0);
    const records = async (repo: string) =>
      (await readFile(join(dir, repo, 'index.txt'), 'utf8')).split('\n').filter((l) => l && !l.startsWith('\t')).map((l) => l.split('\t')[1]).sort();
    expect(await records('r-default')).toEqual(await records('r-crawl'));
    expect((await records('r-default')).length).toBe(13);
  });

  it('runs pipelines/linkgraph.ts: one FROM<TAB>TO line per link on stdout, nothing else', async () => {
    const { code, stdout } = await run('linkgraph', 'r-graph');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.every((l) => /^http:\/\/\S+\thttp:\/\/\S+$/.test(l))).toBe(true);
    expect(lines).toContain(`http://${HOSTS[0]}:${server.port}/p0.html\thttp://${HOSTS[0]}:${server.port}/p1.html`);
    expect(lines).toContain(`http://${HOSTS[0]}:${server.port}/p0.html\thttp://${HOSTS[1]}:${server.port}/p0.html`);
  });

  it('runs pipelines/pdfs.ts: only the PDF, with its size', async () => {
    const { code, stdout } = await run('pdfs', 'r-pdfs');
    expect(code).toBe(0);
    const size = (await readFile(join(dir, 'web', HOSTS[0]!, 'paper.pdf'))).length;
    expect(stdout).toBe(`http://${HOSTS[0]}:${server.port}/paper.pdf\t${size}\n`);
  });

  it('runs pipelines/pagerank.ts: the top pages after the crawl', async () => {
    const { code, stdout } = await run('pagerank', 'r-rank', { TOP: '3' });
    expect(code).toBe(0);
    const rows = stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/rank\s+url\s+out-degree\s+in-degree\s+pagerank/);
    expect(rows).toHaveLength(4);
    const scores = rows.slice(1).map((r) => Number(r.trim().split(/\s+/).at(-1)));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The PDF is linked from a page three links deep and links nowhere: its rank is all it receives and keeps.
    expect(rows[1]).toContain('/paper.pdf');
  });

  it('runs a pipeline file given by path, as the README shows it', async () => {
    // .mts: an ES module wherever it is, even in a folder with no package.json saying so.
    const file = join(dir, 'titles.mts');
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const example = /```ts\n(\/\/ pipelines\/titles\.ts[\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    await writeFile(file, example!);
    const { code, stdout } = await run(file, 'r-titles');
    expect(code).toBe(0);
    expect(stdout.split('\n')).toContain(`http://${HOSTS[0]}:${server.port}/p5.html\ta5`);
  });

  it('says clearly when the pipeline file does not exist', async () => {
    const { code, stderr } = await run('no-such-pipeline', 'r-none');
    expect(code).toBe(2);
    expect(stderr).toContain('no pipeline file');
  });
});

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { parseSeedIndex } from './support/index-files.js';
import { makeTreeSite, writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { readWarc, warcFiles } from './support/warc-files.js';

const ROOT = resolve(import.meta.dirname, '..');
const HOSTS = ['a.docs.test', 'b.docs.test'];

/** Every TypeScript pipeline file the docs show (a ```ts block that calls definePipeline), with where it is. */
async function docPipelines(): Promise<{ name: string; source: string }[]> {
  const docs = await readdir(join(ROOT, 'docs')).then((names) => names.filter((n) => n.endsWith('.md')).map((n) => join('docs', n)), () => []);
  const found: { name: string; source: string }[] = [];
  for (const page of ['README.md', ...docs]) {
    const text = await readFile(join(ROOT, page), 'utf8');
    for (const [i, match] of [...text.matchAll(/```ts\n([\s\S]*?)```/g)].entries())
      if (match[1]!.includes('definePipeline(')) found.push({ name: `${page} #${i + 1}`, source: match[1]! });
  }
  return found;
}

const pipelines = await docPipelines();

/**
 * The docs' pipelines, each run as a pipeline file against a loopback web with `--warc`, then again
 * (a recrawl): what the docs show keeps every feature of `tarantula crawl` — a response record for
 * every page, and conditional requests answered 304 the second time.
 */
describe('the pipelines the docs show', { timeout: 120_000 }, () => {
  let server: FixtureServer;
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    await makeTreeSite(join(dir, 'web'), HOSTS, 5);
    await writePage(join(dir, 'web'), HOSTS[0]!, 'p4.html', '<title>a4</title><a href="paper.pdf">the paper</a>');
    await writePage(join(dir, 'web'), HOSTS[0]!, 'paper.pdf', '%PDF-1.4\n% a tiny pdf\n%%EOF\n');
    server = await startFixtureServer({ root: join(dir, 'web') });
  });
  afterAll(async () => {
    await server.close();
    await remove();
  });

  it('are there to test', () => {
    expect(pipelines.length).toBeGreaterThanOrEqual(2);
  });

  it.each(pipelines.map((p, i) => [p.name, i] as const))('%s runs with --warc, and its recrawl gets 304s', async (_name, i) => {
    const file = join(dir, `pipeline-${i}.ts`);
    await writeFile(file, pipelines[i]!.source);
    const repo = join(dir, `r-${i}`);
    const run = (warc: string) =>
      runCli(
        ['run', file, '--seed', `http://${HOSTS[0]}:${server.port}/p0.html`, ...resolveFlags(HOSTS, server.port), '--repository', repo, '--warc', join(dir, `w-${i}`, warc),
          '--scope', 'free-spanning', '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0'],
        { cwd: dir, env: { TOP: '3' } },
      );
    const first = await run('first');
    expect(first.code, first.stderr).toBe(0);
    const pages = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8')).map((r) => r.url);
    expect(pages.length).toBeGreaterThanOrEqual(9);
    const records = (await Promise.all((await warcFiles(join(dir, `w-${i}`), 'first')).map(readWarc))).flat();
    const responses = new Set(records.filter((r) => r.type === 'response').map((r) => r.header('WARC-Target-URI')));
    for (const url of pages) expect(responses, url).toContain(url);

    const second = await run('second');
    expect(second.code, second.stderr).toBe(0);
    const stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8')) as { recrawl: { unchanged: number; changed: number }; byStatus: Record<string, number> };
    expect(stats.recrawl).toMatchObject({ changed: 0, unchanged: pages.length });
    expect(stats.byStatus['304']).toBe(pages.length);
    const revisits = (await Promise.all((await warcFiles(join(dir, `w-${i}`), 'second')).map(readWarc))).flat().filter((r) => r.type === 'revisit');
    expect(revisits.length).toBeGreaterThanOrEqual(pages.length);
  });
});

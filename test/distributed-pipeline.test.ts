import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

const HOSTS = Array.from({ length: 6 }, (_, i) => `pipe-${i}.test`);
const HEAD = Array.from({ length: 6 }, (_, i) => `head-${i}.test`);
const PAGES = 20;

/** A user's pipeline file, outside the package: the default crawl, then one `URL<TAB>TITLE` line per document. */
const TITLES = `import { tap } from 'rxjs';
import { crawl, defaultSinks, defaultSpec, definePipeline } from 'tarantula';

export default definePipeline((ctx, sinks) =>
  crawl({ ...defaultSpec(ctx), stop: sinks.stop }).pipe(
    defaultSinks(ctx, sinks),
    tap((o) => o.kind === 'document' && sinks.stdout.write(\`\${o.req.url}\\t\${o.doc.title}\\n\`)),
  ),
);
`;

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  const sites = [gridPages(HOSTS, PAGES, 20), gridPages(HEAD, PAGES, 20)];
  web = await startWeb('grid', { root: HOSTILE_ROOT, hooks: { handle: (req, res, at) => sites.some((s) => s.handle!(req, res, at)) }, extraHosts: [...HOSTS, ...HEAD] });
  redis = await startRedis();
  tmp = await tempDir();
  await writeFile(join(tmp.dir, 'titles.mts'), TITLES);
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

const allPages = (hosts = HOSTS): string[] => hosts.flatMap((h) => Array.from({ length: PAGES }, (_, k) => web.url(h, `/${k}`))).sort();

/** `tarantula ARGS` of the crawl of `hosts` into REPOSITORY with a shared frontier: 2 workers, one request in flight each. */
function shared(command: readonly string[], hosts: readonly string[], repository: string, opts: Parameters<typeof runCli>[1] = {}) {
  return runCli(
    [...command, ...NO_DELAYS, ...NO_SITEMAPS, '--seed', web.url(hosts[0]!, '/0'), '--scope', 'free-spanning', '--repository', repository,
      '--frontier', redis.url, '--workers', '2', '--threads', '1', '--user-agent', `tarantula/${hosts[0]}`, '--log-level', '0', ...web.resolve()],
    { cwd: tmp.dir, ...opts },
  );
}

describe('tarantula run PIPELINE with a shared frontier', { timeout: 180_000 }, () => {
  it('runs a user’s pipeline file in 2 worker processes over one crawl: its stdout names every page once, whole lines', async () => {
    const repository = join(tmp.dir, 'titles');
    const run = await shared(['run', join(tmp.dir, 'titles.mts')], HOSTS, repository);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^http:\/\/pipe-\d\.test:\d+\/\d+\tpipe-\d\.test \d+$/);
    expect(lines.map((l) => l.split('\t')[0]).sort()).toEqual(allPages());
    // Both workers ran the pipeline: each fetched some of the pages.
    const workers = join(repository, '.tarantula', 'workers');
    for (const slot of await readdir(workers)) {
      const journal = await readFile(join(workers, slot, '.tarantula', 'journal.jsonl'), 'utf8');
      expect(journal.split('\n').filter((l) => l.startsWith('["d"')).length, `worker ${slot}`).toBeGreaterThan(0);
    }
    expect((await readdir(workers)).length).toBe(2);
    expect(parseSeedIndex(await readFile(join(repository, 'index.txt'), 'utf8')).map((r) => r.url).sort()).toEqual(allPages());
  });

  it('stops every worker when the reader goes away (| head -1), exit 0, and the same crawl then resumes losing nothing', async () => {
    const repository = join(tmp.dir, 'head');
    const first = await shared(['run', 'linkgraph'], HEAD, repository, { onSpawn: (child) => child.stdout!.once('data', () => child.stdout!.destroy()) });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/\n\s+at /);
    const stopped = JSON.parse(await readFile(join(repository, 'stats.json'), 'utf8')) as { documents: number; completed: boolean };
    expect(stopped.completed).toBe(false);
    expect(stopped.documents).toBeLessThan(allPages(HEAD).length);
    const second = await shared(['crawl'], HEAD, repository);
    expect(second.code, second.stderr).toBe(0);
    expect(parseSeedIndex(await readFile(join(repository, 'index.txt'), 'utf8')).map((r) => r.url).sort()).toEqual(allPages(HEAD));
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRequest } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT, logLines } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedisCluster, type TestCluster } from './support/redis-cluster.js';
import { runCli, type CliOptions } from './support/run-cli.js';
import { onSecondWorker } from './support/second-worker.js';
import { tempDir } from './support/temp-dir.js';

const PAGES = 20;
const hostsOf = (name: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${name}-${i}.test`);
const SITES = { spread: hostsOf('spread', 12), kill: hostsOf('ckill', 8), gone: hostsOf('cgone', 8) };
const DELAY_MS = { spread: 20, kill: 30, gone: 30 };

let web: E2eWeb;
let cluster: TestCluster;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  const all = Object.entries(SITES).map(([name, hosts]) => gridPages(hosts, PAGES, DELAY_MS[name as keyof typeof SITES]));
  web = await startWeb('grid', {
    root: HOSTILE_ROOT,
    hooks: { handle: (req, res, at) => all.some((hooks) => hooks.handle!(req, res, at)) },
    extraHosts: Object.values(SITES).flat(),
  });
  cluster = await startRedisCluster(3);
  tmp = await tempDir();
}, 120_000);
afterAll(async () => {
  await web?.close();
  await cluster?.close();
  await tmp?.remove();
});

/** The master (index) serving a key's slot. */
async function masterOf(key: string): Promise<number> {
  const admin = cluster.node(0);
  const slot = (await admin.cluster('KEYSLOT', key)) as number;
  const range = (await admin.cluster('SLOTS')).find(([from, to]) => from <= slot && slot <= to)!;
  return cluster.ports.indexOf(Number(range[2]![1]));
}

/** A master holding neither the crawl's shard record nor its first shard: the URL a user might name. */
async function otherNode(crawlId: string): Promise<number> {
  const taken = [await masterOf(`t:{${crawlId}}:shards`), await masterOf(`{${crawlId}:0}`)];
  return [0, 1, 2].find((i) => !taken.includes(i))!;
}

function crawl(name: keyof typeof SITES, flags: readonly string[], url: string, opts: CliOptions = {}) {
  const hosts = SITES[name];
  const args = [
    'crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--seed', web.url(hosts[0]!, '/0'), '--scope', 'free-spanning', '--repository', join(tmp.dir, name),
    '--frontier', url, '--crawl-id', `c-${name}`, '--user-agent', `tarantula/cluster-${name}`, '--log-level', '0', ...web.resolve(), ...flags,
  ];
  return runCli(args, { cwd: tmp.dir, ...opts });
}

const requestsOf = (name: keyof typeof SITES): FixtureRequest[] =>
  web.server.requests.filter((r) => r.headers['user-agent'] === `tarantula/cluster-${name}` && r.path !== '/robots.txt');
const fetched = (name: keyof typeof SITES): string[] => requestsOf(name).map((r) => web.url(r.host, r.path));
const allPages = (name: keyof typeof SITES): string[] => SITES[name].flatMap((h) => Array.from({ length: PAGES }, (_, k) => web.url(h, `/${k}`))).sort();
const indexUrls = async (name: string): Promise<string[]> => parseSeedIndex(await readFile(join(tmp.dir, name, 'index.txt'), 'utf8')).map((r) => r.url).sort();

function afterPages(name: keyof typeof SITES, n: number, then: () => void): void {
  const timer = setInterval(() => {
    if (requestsOf(name).filter((r) => r.end > 0).length < n) return;
    clearInterval(timer);
    then();
  }, 5);
}

describe('one crawl on a 3-master Redis Cluster', { timeout: 120_000 }, () => {
  it('crawls through a node that holds none of its first keys: every page once, its shards on every master', async () => {
    const url = cluster.url(await otherNode('c-spread'));
    const run = await crawl('spread', ['--workers', '2', '--threads', '2'], url);
    expect(run.code, run.stderr).toBe(0);
    expect(fetched('spread').sort()).toEqual(allPages('spread'));
    expect(await indexUrls('spread')).toEqual(allPages('spread'));
    // The crawl's keys are spread over the three masters, and the shards' host queues are on each.
    for (let i = 0; i < 3; i++) expect((await cluster.node(i).keys('t:{c-spread:*')).length, `master ${i}`).toBeGreaterThan(0);
    const tags = (await cluster.client().get('t:{c-spread}:shards'))!.split(' ');
    expect(new Set(await Promise.all(tags.map((tag) => masterOf(`{${tag}}`))))).toEqual(new Set([0, 1, 2]));
  });

  it('run again, recrawls: every page once and conditionally, from the recrawl schedule in every shard; the first round\'s keys unlinked from every master', async () => {
    const before = requestsOf('spread').length;
    const run = await crawl('spread', ['--workers', '2', '--threads', '2'], cluster.url(await otherNode('c-spread')));
    expect(run.code, run.stderr).toBe(0);
    const again = requestsOf('spread').slice(before);
    expect(again.map((r) => web.url(r.host, r.path)).sort()).toEqual(allPages('spread'));
    // These pages send no validators but the server's Date: If-Modified-Since.
    for (const r of again) expect(r.headers['if-modified-since'], r.path).toBeDefined();
    const tags = (await cluster.client().get('t:{c-spread}:shards'))!.split(' ');
    const visits = await Promise.all(tags.map((tag) => cluster.client().hlen(`t:{${tag}}:visits`)));
    expect(visits.every((n) => n > 0)).toBe(true);
    expect(visits.reduce((a, b) => a + b, 0)).toBe(allPages('spread').length);
    // What is left of the first round on the masters: the crawl's own keys.
    for (let i = 0; i < 3; i++)
      for (const key of [...(await cluster.node(i).keys('t:{c-spread:*')), ...(await cluster.node(i).keys('t:{c-spread}:*'))])
        expect(key.replace(/^t:\{[^}]*\}:/, ''), key).toMatch(/^(crawl|shards|control|seeds|visits|robots:.*)$/);
    expect(await cluster.client().hget('t:{c-spread}:crawl', 'dropped')).toBe('1');
  });

  it('loses nothing when a worker is SIGKILLed: its hosts come back after the lease, at most its in-flight pages twice', async () => {
    const second = onSecondWorker((pid) => afterPages('kill', 40, () => process.kill(pid, 'SIGKILL')));
    const run = await crawl('kill', ['--workers', '2', '--threads', '2', '--lease', '1', '--log-level', '1'], cluster.url(await otherNode('c-kill')), { onSpawn: second.onSpawn });
    expect(run.code, run.stderr).toBe(0);
    expect(logLines(run.stderr).some((l) => l.msg.startsWith('a worker died') && l.pid === second.pid())).toBe(true);
    const pages = fetched('kill');
    expect([...new Set(pages)].sort()).toEqual(allPages('kill'));
    expect(pages.length - new Set(pages).size).toBeLessThanOrEqual(3 * 2);
    expect(await indexUrls('kill')).toEqual(allPages('kill'));
  });

  it('stops the workers cleanly when a master goes away (exit 1), and a rerun once it is back loses nothing', async () => {
    const url = cluster.url(await otherNode('c-gone'));
    // A master other than the URL's, holding shards of the crawl.
    const down = [0, 1, 2].find((i) => cluster.url(i) !== url)!;
    const first = await crawl('gone', ['--workers', '2', '--threads', '2', '--lease', '2'], url, {
      onSpawn: () => afterPages('gone', 30, () => void cluster.stop(down)),
    });
    expect(first.code, first.stderr).toBe(1);
    expect(first.stderr).toContain(`lost the Redis frontier at ${url}`);
    expect(fetched('gone').length).toBeLessThan(allPages('gone').length);
    await cluster.restart(down);
    const second = await crawl('gone', ['--workers', '2', '--threads', '2', '--lease', '2'], url);
    expect(second.code, second.stderr).toBe(0);
    expect([...new Set(fetched('gone'))].sort()).toEqual(allPages('gone'));
    expect(await indexUrls('gone')).toEqual(allPages('gone'));
  });
});

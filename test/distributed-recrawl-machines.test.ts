import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRequest } from '../src/demo/fixture-server.js';
import { NO_DELAYS, NO_SITEMAPS, startWeb, type E2eWeb } from './support/e2e-web.js';
import { gridPages } from './support/grid-web.js';
import { HOSTILE_ROOT } from './support/hostile-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { startRedis, type TestRedis } from './support/redis-server.js';
import { runCli, type CliOptions } from './support/run-cli.js';
import { onSecondWorker } from './support/second-worker.js';
import { tempDir } from './support/temp-dir.js';

/** Eight hosts, so that the hosts a machine's workers lease in one round are rarely all those it leased in the last. */
const HOSTS = Array.from({ length: 8 }, (_, i) => `machines-${i}.test`);
const PAGES = 10;
const CRAWL_ID = 'machines';
/**
 * Every page's first interval, and the shortest (hours): 36 s, long enough that a round run at once
 * after the first finds nothing due, whatever the load of the machine.
 */
const PERIOD = 0.01;
/** Each page's version, its ETag and in its title: the test changes some between two rounds. */
const versions = new Map<string, number>();

/** Machine a's answers of a round, waiting for machine b's first request of it (absent once it came). */
const waitingForB = new Map<string, (() => void)[] | null>();

/** The grid's pages, with ETags, answering If-None-Match with 304 while the page is unchanged; slow enough that both machines take part in every round. */
const grid = gridPages(HOSTS, PAGES, 40, (host, k, etag) => `${host} ${k} ${etag}`, versions);

/** The grid, but machine a gets no answer in a round before machine b has sent its first request of it: both take part, whichever starts first. */
function handle(req: IncomingMessage, res: ServerResponse, at: { host: string; path: string }): boolean {
  if (!HOSTS.includes(at.host)) return false;
  const [, machine, round] = /^tarantula\/([ab])-(\d+)$/.exec(req.headers['user-agent'] ?? '') ?? [];
  const waiting = round === undefined ? null : waitingForB.has(round) ? waitingForB.get(round)! : [];
  if (machine === 'b' && waiting !== null) {
    waitingForB.set(round!, null);
    for (const answerLater of waiting) answerLater();
  } else if (machine === 'a' && waiting !== null) {
    waitingForB.set(round!, [...waiting, () => void grid.handle!(req, res, at)]);
    return true;
  }
  return grid.handle!(req, res, at);
}

let web: E2eWeb;
let redis: TestRedis;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('grid', { root: HOSTILE_ROOT, hooks: { handle }, extraHosts: HOSTS });
  redis = await startRedis();
  tmp = await tempDir('tarantula-machines-');
});
afterAll(async () => {
  await web?.close();
  await redis?.close();
  await tmp?.remove();
});

const path = (...names: string[]): string => join(tmp.dir, ...names);
const allPages = (): string[] => HOSTS.flatMap((h) => Array.from({ length: PAGES }, (_, k) => web.url(h, `/${k}`))).sort();
const urlOf = (r: FixtureRequest): string => web.url(r.host, r.path);
/** The page requests the server saw from `agent`. */
const requestsOf = (agent: string): FixtureRequest[] => web.server.requests.filter((r) => r.headers['user-agent'] === agent && r.path !== '/robots.txt');

/**
 * One round on two "machines": machine `a` (2 workers, or `aWorkers`) and machine `b` (1 worker),
 * each with a repository of its own, on one crawl-id, started together; each sends its own user
 * agent. Every host's first page is a seed: each machine has hosts to lease from the start.
 */
async function round(n: number, opts: { a?: CliOptions; aWorkers?: number; policy?: string; flags?: readonly string[] } = {}) {
  const run = (machine: 'a' | 'b', workers: number, cli: CliOptions = {}) =>
    runCli(
      ['crawl', ...NO_DELAYS, ...NO_SITEMAPS, ...HOSTS.flatMap((h) => ['--seed', web.url(h, '/0')]), '--scope', 'free-spanning', '--repository', path(machine),
        '--frontier', redis.url, '--crawl-id', CRAWL_ID, '--workers', String(workers), '--threads', '1', '--user-agent', `tarantula/${machine}-${n}`,
        '--recrawl-policy', opts.policy ?? 'adaptive', '--period', String(PERIOD), '--min-interval', String(PERIOD), ...web.resolve(), ...(opts.flags ?? ['--log-level', '0'])],
      { cwd: tmp.dir, ...cli },
    );
  const [a, b] = await Promise.all([run('a', opts.aWorkers ?? 2, opts.a), run('b', 1)]);
  return { a, b, requests: { a: requestsOf(`tarantula/a-${n}`), b: requestsOf(`tarantula/b-${n}`) } };
}

/** The records of a journal. */
async function journalRecords(file: string): Promise<{ url: string; title: string; fetchIntervalHours?: number; nextFetch?: string }[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l.startsWith('["d"')).map((l) => (JSON.parse(l) as [string, string, { url: string; title: string }])[2]);
}

/** The lines of the journals machine `m`'s workers wrote in the round that ran last. */
async function workerLines(m: string): Promise<unknown[][]> {
  const dir = path(m, '.tarantula', 'workers');
  const slots = (await readdir(dir)).filter((n) => /^\d+$/.test(n));
  // A slot that did not run this round has no journal (the fold took it).
  const texts = await Promise.all(slots.map((s) => readFile(join(dir, s, '.tarantula', 'journal.jsonl'), 'utf8').catch(() => '')));
  return texts.flatMap((t) => t.split('\n').filter((l) => l.startsWith('[')).map((l) => JSON.parse(l) as unknown[]));
}

/** Waits until every page of the crawl is due again: the latest due time the workers' records say, and a little more. */
async function untilDue(records: readonly { nextFetch?: string }[]): Promise<void> {
  const due = Math.max(...records.map((r) => Date.parse(r.nextFetch!)));
  await sleep(Math.max(0, due - Date.now()) + 200);
}

/** The keys of the crawl in Redis (standalone: one SCAN is all). */
async function crawlKeys(): Promise<string[]> {
  const client = redis.client();
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await client.scan(cursor, 'MATCH', `t:{${CRAWL_ID}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    return keys.sort();
  } finally {
    client.disconnect();
  }
}

const merge = (into: string) => runCli(['merge', path(into), path('a'), path('b')], { cwd: tmp.dir });
const mergedRecords = (into: string) => journalRecords(path(into, '.tarantula', 'journal.jsonl'));

describe('a shared crawl over two machines, recrawled', { timeout: 300_000 }, () => {
  const changed = [`${HOSTS[1]}/3`, `${HOSTS[4]}/0`, `${HOSTS[6]}/9`];
  const isChanged = (url: string): boolean => changed.includes(new URL(url).hostname + new URL(url).pathname);
  /** Which machine fetched each page in round 1. */
  const firstBy = new Map<string, 'a' | 'b'>();

  it('round 1: every page once, over both machines', async () => {
    const { a, b, requests } = await round(1);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect([...requests.a, ...requests.b].map(urlOf).sort()).toEqual(allPages());
    for (const r of requests.a) firstBy.set(urlOf(r), 'a');
    for (const r of requests.b) firstBy.set(urlOf(r), 'b');
    expect(requests.a.length).toBeGreaterThan(0);
    expect(requests.b.length).toBeGreaterThan(0);
  });

  it('run again at once, nothing is due: no page is requested, not even through a link; each machine keeps its copies', async () => {
    const { a, b, requests } = await round(2);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect([...requests.a, ...requests.b]).toEqual([]);
    const merged = await merge('merged-2');
    expect(merged.code, merged.stderr).toBe(0);
    const records = await mergedRecords('merged-2');
    expect(records.map((r) => r.url).sort()).toEqual(allPages());
    for (const r of records) expect(r.fetchIntervalHours, r.url).toBe(PERIOD);
  });

  it('due again: every page requested once, conditionally, whichever machine holds its copy; only the changed pages come in full; one merged index', async () => {
    for (const page of changed) versions.set(page, 2);
    await untilDue(await mergedRecords('merged-2'));
    // Machine a's one worker holds 3 hosts at a time, fewer than it fetched in round 1: b takes some of them.
    const { a, b, requests } = await round(3, { aWorkers: 1 });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const all = [...requests.a, ...requests.b];
    expect(all.map(urlOf).sort()).toEqual(allPages());
    // Conditional everywhere, also where the round-1 copy is in the other repository.
    for (const r of all) expect(r.headers['if-none-match'], urlOf(r)).toMatch(/^"v\d"$/);
    const crossed = [...requests.a.filter((r) => firstBy.get(urlOf(r)) === 'b'), ...requests.b.filter((r) => firstBy.get(urlOf(r)) === 'a')];
    expect(crossed.length).toBeGreaterThan(0);
    // A 304 where no copy is: the journal says the page was revalidated, its record being in the other repository.
    const revalidated = [...(await workerLines('a')), ...(await workerLines('b'))].filter((e) => e[0] === 'x' && e[2] === 'revalidated').map((e) => e[1] as string);
    expect(revalidated.sort()).toEqual(crossed.filter((r) => r.status === 304).map(urlOf).sort());
    expect(all.filter((r) => r.status === 200).map((r) => r.host + r.path).sort()).toEqual([...changed].sort());
    expect(all.filter((r) => r.status === 304)).toHaveLength(allPages().length - changed.length);

    // The round's keys are its own; the earlier rounds' went once it began, but the crawl's own.
    const keys = await crawlKeys();
    const own = keys.filter((k) => k.startsWith(`t:{${CRAWL_ID}}:`)).map((k) => k.slice(`t:{${CRAWL_ID}}:`.length));
    expect(own).toEqual(expect.arrayContaining(['crawl', 'visits']));
    for (const k of own) expect(k).toMatch(/^(crawl|shards|control|seeds|visits|robots:.*)$/);
    expect(keys.filter((k) => k.startsWith(`t:{${CRAWL_ID}/2}:`))).toEqual([]);
    expect(keys.some((k) => k.startsWith(`t:{${CRAWL_ID}/3}:`))).toBe(true);

    const merged = await merge('merged-3');
    expect(merged.code, merged.stderr).toBe(0);
    const index = parseSeedIndex(await readFile(path('merged-3', 'index.txt'), 'utf8'));
    expect(index.map((r) => r.url).sort()).toEqual(allPages());
    for (const r of index) expect(r.title.endsWith(isChanged(r.url) ? '"v2"' : '"v1"'), r.url).toBe(true);
    // The adaptive interval: × 1.5 for a page unchanged (whichever machine revalidated it), ÷ 1.5 (to the minimum) for a changed one.
    for (const r of await mergedRecords('merged-3')) expect(r.fetchIntervalHours, r.url).toBeCloseTo(isChanged(r.url) ? PERIOD : PERIOD * 1.5, 9);

    // One machine's repository reports on its own part.
    const report = await runCli(['report', path('a')], { cwd: tmp.dir });
    expect(report.code, report.stderr).toBe(0);
  });

  it('a worker SIGKILLed mid-round loses nothing (every page is due under recrawl-policy = fixed); the earlier round\'s keys go', async () => {
    const second = onSecondWorker((pid) => {
      const poll = setInterval(() => {
        if (requestsOf('tarantula/a-4').length + requestsOf('tarantula/b-4').length < 20) return;
        clearInterval(poll);
        process.kill(pid, 'SIGKILL');
      }, 5);
    });
    const { a, b, requests } = await round(4, { policy: 'fixed', flags: ['--lease', '1', '--log-level', '1'], a: { onSpawn: second.onSpawn } });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(second.pid()).toBeDefined();
    const all = [...requests.a, ...requests.b];
    expect([...new Set(all.map(urlOf))].sort()).toEqual(allPages());
    expect(all.every((r) => r.headers['if-none-match'] !== undefined)).toBe(true);
    expect(all.filter((r) => r.status === 200)).toHaveLength(0);
    expect((await crawlKeys()).filter((k) => k.startsWith(`t:{${CRAWL_ID}/3}:`))).toEqual([]);

    const merged = await merge('merged-4');
    expect(merged.code, merged.stderr).toBe(0);
    const records = await mergedRecords('merged-4');
    expect(records.map((r) => r.url).sort()).toEqual(allPages());
    for (const r of records) expect(r.title.endsWith(isChanged(r.url) ? '"v2"' : '"v1"'), r.url).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { HOSTILE_ROOT, hostHooks, html, linesAbout, logLines, noRobots, readHostileStats, sendHtml, type Handler } from './support/hostile-web.js';
import { tempDir } from './support/temp-dir.js';

/** `/cal?m=N` links the month before and the month after, for ever. */
const calendar: Handler = noRobots((_req, res, path) => {
  const m = Number(/^\/cal\?m=(-?\d+)$/.exec(path)?.[1] ?? 0);
  sendHtml(res, html(`month ${m}`, [`/cal?m=${m - 1}`, `/cal?m=${m + 1}`]));
});

/** Every page links one level deeper, with a new segment each time: `/a/`, `/a/b/`, … `/a/b/…/z/a/`. */
const deepening: Handler = noRobots((_req, res, path) => {
  const depth = path.split('/').length - 2;
  sendHtml(res, html(`level ${depth}`, [`${path}${String.fromCharCode(97 + (depth % 26))}/`]));
});

/** Four pages whose every link carries a new session id, as servers that track visitors in URLs do. */
const sessionIds: Handler = noRobots((_req, res, path) => {
  const sid = (): string => randomBytes(8).toString('hex');
  sendHtml(res, html(`session page ${path.split('?')[0]}`, ['/', '/news', '/shop', '/about'].map((p) => `${p}?sid=${sid()}`)));
});

/** The crawl must end by itself well within this; the test kills it after. */
const REASONABLE_MS = 15_000;

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  const hosts = { 'cal.test': calendar, 'deep.test': deepening, 'sid.test': sessionIds };
  web = await startWeb('traps', { root: HOSTILE_ROOT, hooks: hostHooks(hosts), extraHosts: Object.keys(hosts) });
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

/** Crawls `seed` with the default limits (politeness delays off) and a log of every decision. */
async function crawl(name: string, seed: string) {
  const repo = join(tmp.dir, name);
  const started = Date.now();
  const run = await web.crawl(['--seed', seed, '--repository', repo, '--log-level', '2'], { cwd: tmp.dir, timeoutMs: REASONABLE_MS });
  const ms = Date.now() - started;
  expect(run.signal, 'the crawl did not end by itself').toBeNull();
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  return { ...run, ms, log: logLines(run.stderr), stats: await readHostileStats(repo) };
}

describe.concurrent('spider traps under the default limits', () => {
  it('an infinite calendar ends at max-depth (20): 41 months, the next ones dropped as too-deep', async () => {
    const run = await crawl('calendar', web.url('cal.test', '/cal?m=0'));
    expect(run.pages).toHaveLength(41);
    expect(run.stats.documents).toBe(41);
    expect(linesAbout(run.log, web.url('cal.test', '/cal?m=21'))).toContainEqual(expect.objectContaining({ reason: 'too-deep' }));
    expect(run.stats.droppedByReason['too-deep']).toBe(4); // both links of months 20 and -20
  });

  it('an infinitely deepening path ends at max-depth (20)', async () => {
    const run = await crawl('deepening', web.url('deep.test', '/a/'));
    expect(run.pages).toHaveLength(21);
    expect(run.stats.droppedByReason['too-deep']).toBe(1);
    expect(run.log).toContainEqual(expect.objectContaining({ reason: 'too-deep', url: expect.stringMatching(/^http:\/\/deep\.test:\d+\/a\/b\/c\//) }));
  });

  it('endless session-id variants of four pages: the crawl ends, having fetched each page about once', async () => {
    const run = await crawl('session-ids', web.url('sid.test', '/'));
    const distinct = new Set(run.pages.map((p) => p.split('?')[0]));
    expect([...distinct].sort()).toEqual(['sid.test/', 'sid.test/about', 'sid.test/news', 'sid.test/shop']);
    expect(run.pages.length).toBeLessThanOrEqual(8);
    expect(run.stats.droppedByReason.duplicate).toBeGreaterThan(0);
  });
});

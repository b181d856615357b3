import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { filter, from, lastValueFrom, map, of, tap, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/keys.js';
import { startFixtureServer, type FixtureServer } from '../demo/fixture-server.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import type { Fetched, Outcome } from '../model/outcome.js';
import { passOutcomes } from '../stages/pass-outcomes.js';
import { openCrawlState } from '../state/crawl-state.js';
import { createCrawlContext, type CrawlContext } from './crawl-context.js';
import { defaultAdmit, defaultUnit } from './default-spec.js';

const log = pino({ level: 'silent', customLevels: { page: 25 } }) as unknown as CrawlLogger;

let server: FixtureServer;
let web: string;
beforeAll(async () => {
  web = await mkdtemp(join(tmpdir(), 'tarantula-spec-web-'));
  await mkdir(join(web, '127.0.0.1'));
  await writeFile(join(web, '127.0.0.1', 'index.html'), '<title>Home</title><a href="a.html">a</a>');
  server = await startFixtureServer({ root: web });
});
afterAll(async () => {
  await server.close();
  await rm(web, { recursive: true, force: true });
});

let repository: string;
let ctx: CrawlContext;
beforeEach(async () => {
  repository = await mkdtemp(join(tmpdir(), 'tarantula-spec-'));
  const seed = `http://127.0.0.1:${server.port}/`;
  const config = { ...DEFAULT_CONFIG, startingPoints: [seed], repository, allowPrivateAddresses: true, rejectList: [/\.tmp$/], minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 };
  const seen = fingerprintSet();
  ctx = createCrawlContext(config, log, seen, await openCrawlState(repository, seen));
});
afterEach(async () => {
  await ctx.close();
  await ctx.state.journal.close();
  await rm(repository, { recursive: true, force: true });
});

const link = (href: string): Candidate => ({ href, base: `http://127.0.0.1:${server.port}/`, depth: 1 });

describe('defaultAdmit: a user\'s stages in their places', () => {
  it('afterFilters sees only links that passed the lists, and what it drops is not taken as seen', async () => {
    const shown: string[] = [];
    let dropping = true;
    const admit = defaultAdmit(ctx, undefined, {
      afterFilters: [tap((l) => shown.push(l.url)), filter((l) => !(dropping && l.url.endsWith('/b.html')))],
    });
    const first = await lastValueFrom(from([link('a.html'), link('x.tmp'), link('b.html')]).pipe(admit, map((r) => r.url), toArray()));
    expect(first).toEqual([`http://127.0.0.1:${server.port}/a.html`]);
    expect(shown).toEqual([`http://127.0.0.1:${server.port}/a.html`, `http://127.0.0.1:${server.port}/b.html`]);
    dropping = false;
    const again = await lastValueFrom(from([link('a.html'), link('b.html')]).pipe(admit, map((r) => r.url), toArray()));
    expect(again).toEqual([`http://127.0.0.1:${server.port}/b.html`]);
  });

  it('beforeQueue sees each new request once, after the seen-set', async () => {
    const queued: CrawlRequest[] = [];
    const admit = defaultAdmit(ctx, undefined, { beforeQueue: [tap((r) => queued.push(r))] });
    await lastValueFrom(from([link('a.html'), link('a.html'), link('c.html')]).pipe(admit, toArray()));
    expect(queued.map((r) => r.url)).toEqual([`http://127.0.0.1:${server.port}/a.html`, `http://127.0.0.1:${server.port}/c.html`]);
  });
});

describe('defaultUnit: a user\'s stages in their places', () => {
  const request = (path: string): CrawlRequest => {
    const url = `http://127.0.0.1:${server.port}${path}`;
    return { url, host: new URL(url).host, depth: 0, originalUrl: url, redirects: 0, attempt: 0 };
  };
  /** Runs one request through the unit, again after robots.txt was fetched, to its end. */
  async function outcomeOf(unit: ReturnType<typeof defaultUnit>, req: CrawlRequest): Promise<Outcome> {
    const out = await lastValueFrom(of(req).pipe(unit));
    return out.kind === 'robots-fetched' ? lastValueFrom(of(req).pipe(unit)) : out;
  }

  it('beforeFetch can answer for a request, which is then never fetched', async () => {
    const before = server.requests.length;
    const unit = defaultUnit(ctx, undefined, {
      beforeFetch: [passOutcomes((req: CrawlRequest): CrawlRequest | Outcome => ({ kind: 'skipped', req, reason: 'rejected', message: 'not today' }))],
    });
    const out = await outcomeOf(unit, request('/'));
    expect(out).toMatchObject({ kind: 'skipped', reason: 'rejected', message: 'not today' });
    expect(server.requests.length).toBe(before);
  });

  it('afterFetch gets the response before parsing; afterParse gets the parsed document', async () => {
    const statuses: number[] = [];
    const titles: (string | null)[] = [];
    const unit = defaultUnit(ctx, undefined, {
      afterFetch: [passOutcomes((f: Fetched): Fetched => (statuses.push(f.response.status), f))],
      afterParse: [tap((o) => o.kind === 'document' && titles.push(o.doc.title))],
    });
    const out = await outcomeOf(unit, request('/'));
    expect(out.kind).toBe('document');
    expect(statuses).toEqual([200]);
    expect(titles).toEqual([out.kind === 'document' ? out.doc.title : 'none']);
    expect(titles[0]).not.toBeNull();
  });
});

import { firstValueFrom, from, lastValueFrom, of, pipe, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { FetchResponse } from '../model/fetch-response.js';
import type { Fetched, Outcome, Parsed } from '../model/outcome.js';
import { Politeness } from '../frontier/politeness.js';
import { RobotsCache } from '../robots/robots-cache.js';
import { MirrorStore } from '../store/mirror-store.js';
import { fetchPage } from './fetch-page.js';
import { obeyRobots } from './obey-robots.js';
import { passOutcomes } from './pass-outcomes.js';
import { readSitemaps } from './read-sitemaps.js';
import { storeDocument } from './store-document.js';

const req: CrawlRequest = { url: 'http://a.test/', host: 'a.test', depth: 0, originalUrl: 'http://a.test/', redirects: 0, attempt: 0 };
const response: FetchResponse = { status: 200, headers: {}, body: Buffer.from('x'), truncated: false, startedAt: 0, durationMs: 1 };
const fetched: Fetched = { kind: 'fetched', req, response };
const skipped: Outcome = { kind: 'skipped', req, reason: 'robots' };

describe('passOutcomes', () => {
  it('gives the work each value of its kind, sync or async, and lets every outcome by unchanged', async () => {
    const seen: string[] = [];
    const stage = passOutcomes((f: Fetched): Promise<Outcome> => {
      seen.push(f.req.url);
      return Promise.resolve({ kind: 'failed', req: f.req, code: 'x', message: 'x' });
    });
    const out = await lastValueFrom(from<(Fetched | Outcome)[]>([skipped, fetched]).pipe(stage, toArray()));
    expect(out).toEqual([skipped, { kind: 'failed', req, code: 'x', message: 'x' }]);
    expect(out[0]).toBe(skipped);
    expect(seen).toEqual(['http://a.test/']);
    expect(await firstValueFrom(of(fetched).pipe(passOutcomes((f: Fetched) => f)))).toBe(fetched);
  });

  it('emits results as they settle, completes once every one has, and ends with the error of a work that throws or rejects', async () => {
    const later = { ...fetched, req: { ...req, url: 'http://a.test/later' } };
    let release: (value: Fetched) => void = () => undefined;
    const slow = new Promise<Fetched>((resolve) => (release = resolve));
    const stage = passOutcomes((f: Fetched): Fetched | Promise<Fetched> => (f === later ? slow : f));
    const done = lastValueFrom(from<Fetched[]>([later, fetched]).pipe(stage, toArray()));
    release(later);
    expect(await done).toEqual([fetched, later]);
    const thrown = passOutcomes((): Fetched => {
      throw new Error('thrown');
    });
    await expect(lastValueFrom(of(fetched).pipe(thrown))).rejects.toThrow('thrown');
    await expect(lastValueFrom(of(fetched).pipe(passOutcomes(() => Promise.reject(new Error('rejected')))))).rejects.toThrow('rejected');
  });

  it('types the unit so that the compiler rejects its stages in the wrong order', () => {
    const robots = new RobotsCache({ fetch: () => Promise.resolve(response), userAgent: 'tarantula/1.0', ttlMs: 1 });
    const politeness = new Politeness({ delayFactor: 0, minDelayMs: 0, maxDelayMs: 0, crawlDelayMs: () => 0 });
    const robotsStage = obeyRobots({ robots, politeness, userAgent: 'tarantula/1.0', maxRetries: 0, maxCrawlDelayMs: 0 });
    const fetchStage = fetchPage({ politeness, maxRetries: 0, maxRedirects: 0 } as unknown as Parameters<typeof fetchPage>[0]);
    const store = storeDocument(new MirrorStore('/nonexistent'));
    const inOrder = pipe(robotsStage, fetchStage, readSitemaps());
    // @ts-expect-error a fetched response does not go back to robots.txt
    const backwards = pipe(fetchStage, robotsStage);
    // @ts-expect-error a response must be parsed before it is stored
    const unparsed = pipe(fetchStage, store);
    // @ts-expect-error a parsed document is not fetched again
    const twice = pipe(passOutcomes((f: Fetched): Parsed => ({ kind: 'parsed', req: f.req, response: f.response, doc: {} as Parsed['doc'] })), fetchStage);
    expect([inOrder, backwards, unparsed, twice].every((op) => typeof op === 'function')).toBe(true);
  });
});

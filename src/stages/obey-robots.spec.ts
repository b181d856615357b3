import { firstValueFrom, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { FetchResponse } from '../model/fetch-response.js';
import type { CrawlRequest } from '../model/crawl-request.js';
import { Politeness } from '../frontier/politeness.js';
import { RobotsCache } from '../robots/robots-cache.js';
import { obeyRobots } from './obey-robots.js';

const req = (path: string, attempt = 0): CrawlRequest => ({ url: `http://a.test${path}`, host: 'a.test', depth: 0, originalUrl: path, redirects: 0, attempt });

/** obeyRobots over a robots.txt answered with `status` and `body`; counts the robots.txt fetches. */
function setup(status: number, body = '', headers: Record<string, string> = {}, maxCrawlDelayMs = 60_000, sitemaps = false) {
  let fetches = 0;
  const fetch = async (): Promise<FetchResponse> => {
    fetches++;
    return { status, headers, body: Buffer.from(body), truncated: false, startedAt: 0, durationMs: 1 };
  };
  const robots = new RobotsCache({ fetch, userAgent: 'tarantula/1.0', ttlMs: 60_000 });
  const politeness = new Politeness({ delayFactor: 0, minDelayMs: 0, maxDelayMs: 0, crawlDelayMs: (h) => robots.crawlDelayMs(h) });
  const stage = obeyRobots({ robots, politeness, userAgent: 'tarantula/1.0', maxRetries: 1, maxCrawlDelayMs, sitemaps });
  return { stage, run: (r: CrawlRequest) => firstValueFrom(of(r).pipe(stage)), politeness, fetches: () => fetches };
}

describe('obeyRobots', () => {
  it('puts the request back after fetching robots.txt, then lets it through, and skips a disallowed one as robots', async () => {
    const { run, fetches } = setup(200, 'User-agent: tarantula\nDisallow: /private/\n');
    expect(await run(req('/public'))).toEqual({ kind: 'robots-fetched', req: req('/public') });
    expect(await run(req('/public'))).toEqual(req('/public'));
    expect(await run(req('/private/x'))).toMatchObject({ kind: 'skipped', reason: 'robots' });
    expect(fetches()).toBe(1);
  });

  it('passes outcomes through untouched, without fetching robots.txt', async () => {
    const { stage, fetches } = setup(200);
    const failed = { kind: 'failed', req: req('/'), code: 'x', message: 'x' } as const;
    expect(await firstValueFrom(of(failed).pipe(stage))).toBe(failed);
    expect(fetches()).toBe(0);
  });

  it('retries an unavailable robots.txt, backing off as Retry-After asks', async () => {
    const { run, politeness } = setup(503, '', { 'retry-after': '3' });
    expect(await run(req('/'))).toMatchObject({ kind: 'retry', code: 'http-503', retry: { attempt: 1 } });
    expect(politeness.delayMs('a.test')).toBe(3000);
  });

  it('gives up at once on a robots.txt whose Retry-After is above the longest honoured, as on a page', async () => {
    const { run, fetches } = setup(503, '', { 'retry-after': '100000' });
    expect(await run(req('/'))).toMatchObject({ kind: 'skipped', reason: 'robots-unavailable' });
    expect(fetches()).toBe(1);
  });

  it('after max-retries, skips the request as robots-unavailable, and every later one at once', async () => {
    const { run, fetches } = setup(500);
    expect(await run(req('/', 1))).toMatchObject({ kind: 'skipped', reason: 'robots-unavailable', message: 'http://a.test/robots.txt: HTTP 500' });
    expect(await run(req('/other', 0))).toMatchObject({ kind: 'skipped', reason: 'robots-unavailable' });
    expect(fetches()).toBe(1);
  });

  it('skips a host whose Crawl-delay is above max-crawl-delay, saying so', async () => {
    const { run } = setup(200, 'User-agent: *\nCrawl-delay: 90\n');
    expect(await run(req('/'))).toMatchObject({ kind: 'skipped', reason: 'crawl-delay', message: 'Crawl-delay 90 s is above max-crawl-delay' });
  });

  it('reads no sitemap of a host skipped for its Crawl-delay', async () => {
    const { run } = setup(200, 'User-agent: *\nCrawl-delay: 100000\nSitemap: http://a.test/map.xml\n', {}, 60_000, true);
    const out = await run(req('/'));
    expect(out).toMatchObject({ kind: 'skipped', reason: 'crawl-delay' });
    expect(out).not.toHaveProperty('links');
  });

  it('honours a Crawl-delay within max-crawl-delay as the host’s politeness delay', async () => {
    const { run, politeness } = setup(200, 'User-agent: *\nCrawl-delay: 1.5\n');
    expect(await run(req('/'))).toEqual({ kind: 'robots-fetched', req: req('/') });
    expect(politeness.delayMs('a.test')).toBe(1500);
  });
});

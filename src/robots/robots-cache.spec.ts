import { describe, expect, it } from 'vitest';
import type { FetchResponse } from '../model/fetch-response.js';
import { FetchError } from '../fetch/fetch-error.js';
import { RobotsCache, type RobotsVerdict } from './robots-cache.js';

type Answer = { status: number; body?: string; headers?: Record<string, string> } | FetchError;

/** A cache over a fake fetch answering each URL from `answers`, recording what it was asked. */
function cacheOf(answers: Record<string, Answer>, ttlMs = 60_000, sizes: { maxOrigins?: number; maxIdleOrigins?: number } = {}) {
  const asked: string[] = [];
  const fetch = async (url: string): Promise<FetchResponse> => {
    asked.push(url);
    await new Promise((r) => setTimeout(r, 5));
    const a = answers[url] ?? { status: 404 };
    if (a instanceof FetchError) throw a;
    return { status: a.status, headers: a.headers ?? {}, body: Buffer.from(a.body ?? ''), truncated: false, startedAt: 0, durationMs: 5 };
  };
  return { asked, robots: new RobotsCache({ fetch, userAgent: 'tarantula/1.0', ttlMs, ...sizes }) };
}

const allowed = (v: RobotsVerdict, url: string): boolean => v.state === 'ready' && v.rules.isAllowed(url, 'tarantula/1.0');
const RULES = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n';

describe('RobotsCache', () => {
  it('fetches robots.txt once for concurrent first requests, then answers from the cache', async () => {
    const { asked, robots } = cacheOf({ 'http://a.test/robots.txt': { status: 200, body: RULES } });
    expect(robots.peek('http://a.test')).toBeUndefined();
    const verdicts = await Promise.all([robots.get('http://a.test'), robots.get('http://a.test'), robots.get('http://a.test')]);
    expect(asked).toEqual(['http://a.test/robots.txt']);
    for (const v of verdicts) expect(allowed(v, 'http://a.test/private/x')).toBe(false);
    expect(allowed(robots.peek('http://a.test')!, 'http://a.test/public')).toBe(true);
    expect(robots.crawlDelayMs('a.test')).toBe(2000);
  });

  it('refetches once robots-ttl has passed', async () => {
    const { asked, robots } = cacheOf({ 'http://a.test/robots.txt': { status: 200, body: RULES } }, 1000);
    await robots.get('http://a.test');
    expect(robots.peek('http://a.test', Date.now() + 500)).toBeDefined();
    expect(robots.peek('http://a.test', Date.now() + 1500)).toBeUndefined();
    await robots.get('http://a.test');
    expect(asked).toHaveLength(2);
  });

  it('follows five redirects, across origins, and applies the rules found to the first origin', async () => {
    const answers: Record<string, Answer> = { 'http://a.test/robots.txt': { status: 301, headers: { location: 'http://b.test/r1' } } };
    for (let i = 1; i < 5; i++) answers[`http://b.test/r${i}`] = { status: 302, headers: { location: `/r${i + 1}` } };
    answers['http://b.test/r5'] = { status: 200, body: RULES };
    const { asked, robots } = cacheOf(answers);
    expect(allowed(await robots.get('http://a.test'), 'http://a.test/private/x')).toBe(false);
    expect(asked).toHaveLength(6);
  });

  it('takes robots.txt as unavailable (allow all) after more than five redirects, or a redirect to nowhere', async () => {
    const loop = cacheOf({ 'http://a.test/robots.txt': { status: 301, headers: { location: '/robots.txt' } } });
    expect(allowed(await loop.robots.get('http://a.test'), 'http://a.test/private/x')).toBe(true);
    expect(loop.asked).toHaveLength(6);
    for (const location of ['http://[bad', 'ftp://a.test/robots.txt']) {
      const { robots } = cacheOf({ 'http://a.test/robots.txt': { status: 302, headers: { location } } });
      expect(allowed(await robots.get('http://a.test'), 'http://a.test/private/x')).toBe(true);
    }
  });

  it.each([401, 403, 404, 410])('allows everything when robots.txt answers %i', async (status) => {
    const { robots } = cacheOf({ 'http://a.test/robots.txt': { status, body: 'Disallow: /' } });
    expect(allowed(await robots.get('http://a.test'), 'http://a.test/private/x')).toBe(true);
  });

  it.each([500, 503, 429])('disallows everything for now when robots.txt answers %i, with any Retry-After, and does not cache it', async (status) => {
    const { asked, robots } = cacheOf({ 'http://a.test/robots.txt': { status, headers: { 'retry-after': '7' } } });
    expect(await robots.get('http://a.test')).toMatchObject({ state: 'unavailable', code: `http-${status}`, retry: true, retryAfterMs: 7000 });
    expect(robots.peek('http://a.test')).toBeUndefined();
    await robots.get('http://a.test');
    expect(asked).toHaveLength(2);
  });

  it('passes a network error on as unavailable, retryable as the error says', async () => {
    const { robots } = cacheOf({
      'http://a.test/robots.txt': new FetchError('refused', 'connect ECONNREFUSED', 'retry'),
      'http://b.test/robots.txt': new FetchError('dns', 'getaddrinfo ENOTFOUND', 'give-up'),
    });
    expect(await robots.get('http://a.test')).toMatchObject({ state: 'unavailable', code: 'refused', retry: true });
    expect(await robots.get('http://b.test')).toMatchObject({ state: 'unavailable', code: 'dns', retry: false });
  });

  it('remembers an origin given up on, not to be retried', async () => {
    const { robots } = cacheOf({ 'http://a.test/robots.txt': { status: 503 } });
    robots.giveUp('http://a.test', await robots.get('http://a.test'));
    expect(robots.peek('http://a.test')).toMatchObject({ state: 'unavailable', retry: false });
  });

  describe('many origins', () => {
    const MANY = {
      'http://a.test/robots.txt': { status: 200, body: 'User-agent: other\nDisallow: /\n\nUser-agent: tarantula\nDisallow: /private/\nAllow: /private/*.css$\nCrawl-delay: 2\nSitemap: http://a.test/s.xml\n' },
      'http://b.test/robots.txt': { status: 200, body: 'User-agent: *\nAllow: /\n' },
      'http://c.test/robots.txt': { status: 503 },
      'http://d.test/robots.txt': { status: 200, body: 'User-agent: *\nDisallow: /d/\n' },
    } satisfies Record<string, Answer>;

    it('keeps the rules of origins past maxOrigins compact, and answers from them without fetching again', async () => {
      const { asked, robots } = cacheOf(MANY, 60_000, { maxOrigins: 1 });
      await robots.get('http://a.test');
      await robots.get('http://b.test');
      robots.giveUp('http://c.test', await robots.get('http://c.test'));
      await robots.get('http://d.test');
      expect(robots.size).toBe(4);
      // Each of a, b, c went compact as the next one came; asked again, each answers as before.
      const a = robots.peek('http://a.test')!;
      expect(allowed(a, 'http://a.test/private/x.html')).toBe(false);
      expect(allowed(a, 'http://a.test/private/site.css')).toBe(true);
      expect(allowed(a, 'http://a.test/public')).toBe(true);
      expect(robots.crawlDelayMs('a.test')).toBe(2000);
      expect(allowed(robots.peek('http://b.test')!, 'http://b.test/anything')).toBe(true);
      expect(robots.peek('http://c.test')).toMatchObject({ state: 'unavailable', code: 'http-503', retry: false });
      expect(allowed(robots.peek('http://d.test')!, 'http://d.test/d/x')).toBe(false);
      expect(await robots.get('http://a.test')).toMatchObject({ state: 'ready' });
      expect(asked).toEqual(['http://a.test/robots.txt', 'http://b.test/robots.txt', 'http://c.test/robots.txt', 'http://d.test/robots.txt']);
    });

    it('forgets the oldest past maxIdleOrigins, which is then fetched again, its Crawl-delay gone meanwhile', async () => {
      const { asked, robots } = cacheOf(MANY, 60_000, { maxOrigins: 1, maxIdleOrigins: 1 });
      await robots.get('http://a.test');
      await robots.get('http://b.test');
      await robots.get('http://d.test');
      expect(robots.size).toBe(2);
      expect(robots.peek('http://a.test')).toBeUndefined();
      expect(robots.crawlDelayMs('a.test')).toBe(0);
      expect(allowed(await robots.get('http://a.test'), 'http://a.test/private/x')).toBe(false);
      expect(robots.crawlDelayMs('a.test')).toBe(2000);
      expect(asked.filter((u) => u === 'http://a.test/robots.txt')).toHaveLength(2);
    });

    it('lets compact rules expire at the robots-ttl of their fetch', async () => {
      const { asked, robots } = cacheOf(MANY, 1000, { maxOrigins: 1 });
      await robots.get('http://a.test');
      await robots.get('http://b.test');
      expect(robots.peek('http://a.test', Date.now() + 500)).toBeDefined();
      await robots.get('http://b.test');
      expect(robots.peek('http://a.test', Date.now() + 1500)).toBeUndefined();
      expect(robots.peek('http://a.test')).toBeUndefined();
      await robots.get('http://a.test');
      expect(asked.filter((u) => u === 'http://a.test/robots.txt')).toHaveLength(2);
    });
  });
});

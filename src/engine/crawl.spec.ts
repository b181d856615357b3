import { Subject, map, mergeMap, of, timer, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import { hostFrontier } from '../frontier/host-frontier.js';
import { crawl, type CrawlSpec, type Release } from './crawl.js';
import { ENDED } from '../model/request-end.js';

interface Page {
  readonly req: CrawlRequest;
  readonly links: readonly Candidate[];
}

/** A tiny web: each URL's outgoing links. */
type Web = Record<string, readonly string[]>;

const request = (url: string, depth: number): CrawlRequest => ({
  url,
  host: new URL(url).host,
  depth,
  originalUrl: url,
  redirects: 0,
  attempt: 0,
});

function specFor(
  web: Web | ((url: string) => readonly string[]),
  opts: Partial<CrawlSpec<Page>> & { order?: 'bfs' | 'dfs'; delayMs?: number; fetch?: (req: CrawlRequest, release: Release) => Observable<CrawlRequest> } = {},
): CrawlSpec<Page> {
  const seen = new Set<string>();
  const linksOf = typeof web === 'function' ? web : (u: string) => web[u] ?? [];
  const fetch = opts.fetch ?? ((req: CrawlRequest) => of(req));
  return {
    seeds: of({ href: Object.keys(typeof web === 'function' ? { 'http://a.test/0': [] } : web)[0]!, depth: 0, seed: true }),
    admit: (c$) =>
      c$.pipe(
        mergeMap((c) => (seen.has(c.href) ? [] : (seen.add(c.href), [request(c.href, c.depth)]))),
      ),
    unit: (release) => (r$) => r$.pipe(mergeMap((req) => fetch(req, release)), map((req) => ({ req, links: linksOf(req.url).map((href) => ({ href, depth: req.depth + 1 })) }))),
    links: (p) => p.links,
    frontier: hostFrontier({ order: opts.order ?? 'bfs', politeness: { delayMs: () => opts.delayMs ?? 0 } }),
    concurrency: 1,
    ...opts,
  };
}

const tree: Web = {
  'http://a.test/': ['http://a.test/1', 'http://b.test/2'],
  'http://a.test/1': ['http://a.test/1/1', 'http://b.test/1/2'],
  'http://b.test/2': ['http://a.test/2/1', 'http://b.test/2/2'],
};

async function urls(spec: CrawlSpec<Page>): Promise<string[]> {
  const out: string[] = [];
  await new Promise<void>((resolve, reject) =>
    crawl(spec).subscribe({ next: (p) => out.push(p.req.url), error: reject, complete: resolve }),
  );
  return out;
}

describe('crawl', () => {
  it('visits a tree breadth-first with one thread', async () => {
    expect(await urls(specFor(tree, { order: 'bfs' }))).toEqual([
      'http://a.test/', 'http://a.test/1', 'http://b.test/2', 'http://a.test/1/1', 'http://b.test/1/2', 'http://a.test/2/1', 'http://b.test/2/2',
    ]);
  });

  it('visits a tree in depth-first preorder with one thread, links in document order', async () => {
    expect(await urls(specFor(tree, { order: 'dfs' }))).toEqual([
      'http://a.test/', 'http://a.test/1', 'http://a.test/1/1', 'http://b.test/1/2', 'http://b.test/2', 'http://a.test/2/1', 'http://b.test/2/2',
    ]);
  });

  it('completes after 50,000 synchronous pages without overflowing the stack', async () => {
    const chain = (u: string) => {
      const n = Number(u.slice(u.lastIndexOf('/') + 1));
      return n < 50_000 ? [`http://h${n % 7}.test/${n + 1}`] : [];
    };
    const spec = specFor(chain, { concurrency: 4 });
    expect((await urls(spec)).length).toBe(50_001);
  });

  it('keeps the politeness gap per host and interleaves hosts, in virtual time', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, expectObservable }) => {
      const web: Web = {
        'http://a.test/': ['http://a.test/1', 'http://b.test/1', 'http://a.test/2'],
      };
      const spec = specFor(web, {
        concurrency: 4,
        delayMs: 10,
        fetch: (req) => cold('---(x|)', { x: req }),
      });
      const out$ = crawl({ ...spec }).pipe(map((p) => ({ 'http://a.test/': 'r', 'http://a.test/1': 'a', 'http://b.test/1': 'b', 'http://a.test/2': 'c' })[p.req.url]));
      // b is a new host and starts at once; a waits 10 frames after each of its requests ends.
      expectObservable(out$).toBe('---r--b---------a------------(c|)');
    });
  });

  it('stops pulling when mayStart says no, and completes once in-flight work is done', async () => {
    let started = 0;
    const spec = specFor((u) => [`${u}x`, `${u}y`], {
      concurrency: 2,
      fetch: (req) => (started++, timer(1).pipe(map(() => req))),
      mayStart: () => started < 5,
    });
    expect((await urls(spec)).length).toBe(5);
  });

  it('starts no request while paused (the one in flight finishes) and pulls again on resume, in virtual time', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, hot, expectObservable }) => {
      const web: Web = { 'http://a.test/0': ['http://a.test/1'], 'http://a.test/1': ['http://a.test/2'] };
      const spec = specFor(web, {
        pause: hot('---t------f', { t: true, f: false }),
        fetch: (req) => cold('--(x|)', { x: req }),
      });
      const out$ = crawl(spec).pipe(map((p) => p.req.url.slice(-1)));
      // 1 was in flight when the pause came at frame 3: it ends at 4; 2 waits for the resume at 10.
      expectObservable(out$).toBe('--0-1-------(2|)');
    });
  });

  it('admits seeds added while it runs, and completes without waiting for more, in virtual time', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, hot, expectObservable }) => {
      const spec = specFor({ 'http://a.test/': [] }, {
        added: hot('-x', { x: [{ href: 'http://b.test/', depth: 0, seed: true }] }),
        fetch: (req) => cold('--(x|)', { x: req }),
      });
      const out$ = crawl(spec).pipe(map((p) => p.req.host[0]));
      expectObservable(out$).toBe('--a-(b|)');
    });
  });

  it('stops on the stop signal: no new request starts, the crawl completes', async () => {
    const stop = new Subject<void>();
    let n = 0;
    const spec = specFor((u) => [`${u}x`, `${u}y`], {
      concurrency: 2,
      stop,
      fetch: (req) => timer(1).pipe(map(() => (++n === 3 && stop.next(), req))),
    });
    const got = await urls(spec);
    expect(got.length).toBeGreaterThanOrEqual(3);
    expect(got.length).toBeLessThanOrEqual(4);
  });

  it('keeps at most `concurrency` requests in flight, and up to `units` units while released ones are processed', async () => {
    let requests = 0, units = 0, maxRequests = 0, maxUnits = 0;
    const children = (u: string) => {
      const path = new URL(u).pathname;
      return path.length < 5 ? ['a', 'b', 'c'].map((h) => `http://${h}.test${path}${h}`) : [];
    };
    const spec: CrawlSpec<Page> = specFor(children, {
      concurrency: 2,
      units: 5,
      // the "fetch" ends after 1 ms and frees its host; processing then takes 5 ms more
      fetch: (req, release) => {
        requests++, units++;
        maxRequests = Math.max(maxRequests, requests);
        maxUnits = Math.max(maxUnits, units);
        return timer(1).pipe(
          mergeMap(() => {
            requests--;
            release(req);
            return timer(5);
          }),
          map(() => (units--, req)),
        );
      },
    });
    expect((await urls(spec)).length).toBe(40);
    expect(maxRequests).toBe(2);
    expect(maxUnits).toBe(5);
  });

  it('runs one unit at a time with one thread, whatever the fetch releases', async () => {
    let units = 0, maxUnits = 0;
    const spec: CrawlSpec<Page> = specFor(tree, {
      fetch: (req, release) => {
        maxUnits = Math.max(maxUnits, ++units);
        release(req);
        return timer(1).pipe(map(() => (units--, req)));
      },
    });
    expect(await urls(spec)).toEqual([
      'http://a.test/', 'http://a.test/1', 'http://b.test/2', 'http://a.test/1/1', 'http://b.test/1/2', 'http://a.test/2/1', 'http://b.test/2/2',
    ]);
    expect(maxUnits).toBe(1);
  });

  it('hands each request’s end to the frontier: one that ends again is put back at the head of its host and fetched again', async () => {
    const tries = new Map<string, number>();
    const ends: string[] = [];
    const spec = specFor(tree, {
      fetch: (req) => (tries.set(req.url, (tries.get(req.url) ?? 0) + 1), of(req)),
      // The first try of http://a.test/1 is a retry; every other request is done.
      end: (p) => (p.req.url === 'http://a.test/1' && tries.get(p.req.url) === 1 ? { kind: 'again', next: { ...p.req, attempt: 1 } } : ENDED),
    });
    const frontier = spec.frontier;
    const release = frontier.release.bind(frontier);
    frontier.release = (req, now, end) => (end && ends.push(`${req.url} ${end.kind}`), release(req, now, end));
    expect(await urls(spec)).toEqual([
      'http://a.test/', 'http://a.test/1', 'http://a.test/1', 'http://b.test/2', 'http://a.test/1/1', 'http://b.test/1/2', 'http://a.test/2/1', 'http://b.test/2/2',
    ]);
    expect(ends.slice(0, 3)).toEqual(['http://a.test/ done', 'http://a.test/1 again', 'http://a.test/1 done']);
  });

  it('completes once nothing is in flight when the frontier is exhausted (a limit shared with other workers), pending requests left', async () => {
    let fetched = 0;
    const spec = specFor((u) => [`${u}x`, `${u}y`], { concurrency: 2, fetch: (req) => (fetched++, timer(1).pipe(map(() => req))) });
    const frontier = spec.frontier;
    Object.defineProperty(frontier, 'exhausted', { get: () => fetched >= 3 });
    expect((await urls(spec)).length).toBe(3);
    expect(frontier.size).toBeGreaterThan(0);
  });
});


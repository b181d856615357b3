import { beforeEach, describe, expect, it } from 'vitest';
import { fingerprintSet } from '../frontier/seen-set.js';
import { dedup, dedupStep } from './dedup.js';
import { admissible, marbles, reports, request } from '../../test/support/admission-values.js';

let scheduler: ReturnType<typeof marbles>;
let drops: ReturnType<typeof reports>;
beforeEach(() => {
  scheduler = marbles();
  drops = reports();
});

describe('dedup', () => {
  it('turns the first of each URL into a request and reports the rest as duplicates', () => {
    const seen = fingerprintSet();
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: admissible('http://a.test/1'), b: admissible('http://a.test/2'), c: admissible('http://a.test/1') };
      expectObservable(cold('abc|', values).pipe(dedup(seen, drops.report))).toBe('ab-|', {
        a: request('http://a.test/1', { originalUrl: 'http://a.test/1' }),
        b: request('http://a.test/2', { originalUrl: 'http://a.test/2' }),
      });
    });
    expect(drops.reported).toEqual([['duplicate', 'http://a.test/1']]);
  });

  it('depth-first: a URL seen and still waiting comes again, marked, to move to the top of the stack', () => {
    const seen = fingerprintSet();
    const started = fingerprintSet();
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: admissible('http://a.test/1'), b: admissible('http://a.test/1') };
      expectObservable(cold('ab|', values).pipe(dedup(seen, drops.report, started))).toBe('ab|', {
        a: request('http://a.test/1'),
        b: request('http://a.test/1', { again: true }),
      });
    });
    started.add('http://a.test/1');
    marbles().run(({ cold, expectObservable }) => {
      expectObservable(cold('a|', { a: admissible('http://a.test/1') }).pipe(dedup(seen, drops.report, started))).toBe('-|');
    });
  });

  it('makes each request with its level when given levelOf, and with none without it', () => {
    const withLevel = dedupStep(fingerprintSet(), drops.report, undefined, undefined, (req) => (req.url.endsWith('/hot') ? 3 : req.depth));
    expect(withLevel(admissible('http://a.test/hot', 2))).toEqual(request('http://a.test/hot', { depth: 2, level: 3 }));
    expect(withLevel(admissible('http://a.test/cold', 2))).toEqual(request('http://a.test/cold', { depth: 2, level: 2 }));
    expect(withLevel(admissible('http://a.test/hot', 2))).toBeUndefined();
    const plain = dedupStep(fingerprintSet(), drops.report)(admissible('http://a.test/x'));
    expect(plain).toStrictEqual(request('http://a.test/x'));
    expect(Object.keys(plain!)).not.toContain('level');
  });

  it('keeps the original href a link had when it differs from the URL, and its sitemap fields', () => {
    const step = dedupStep(fingerprintSet(), drops.report);
    const a = admissible('http://a.test/x', 1, { href: 'x#frag', sitemap: 2, sitemapLastmod: '2026-01-01' });
    expect(step(a)).toStrictEqual(request('http://a.test/x', { originalUrl: 'x#frag', sitemap: 2, sitemapLastmod: '2026-01-01' }));
  });
});

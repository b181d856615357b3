import { beforeEach, describe, expect, it } from 'vitest';
import { hostLimit } from './host-limit.js';
import { marbles, reports, request } from '../../test/support/admission-values.js';

let scheduler: ReturnType<typeof marbles>;
let drops: ReturnType<typeof reports>;
beforeEach(() => {
  scheduler = marbles();
  drops = reports();
});

describe('hostLimit', () => {
  it('admits at most max new URLs a host; requests again and sitemaps do not count', () => {
    const counts = new Map<string, number>();
    scheduler.run(({ cold, expectObservable }) => {
      const values = {
        a: request('http://a.test/1'),
        b: request('http://a.test/sitemap.xml', { sitemap: 1 }),
        c: request('http://a.test/1', { again: true }),
        d: request('http://a.test/2'),
        e: request('http://b.test/1'),
        f: request('http://a.test/3'),
      };
      expectObservable(cold('abcdef|', values).pipe(hostLimit(2, counts, drops.report))).toBe('abcde-|', values);
    });
    expect(drops.reported).toEqual([['host-limit', 'http://a.test/3']]);
    expect(counts).toEqual(new Map([['a.test', 2], ['b.test', 1]]));
  });
});

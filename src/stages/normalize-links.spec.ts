import { beforeEach, describe, expect, it } from 'vitest';
import { normalizeLinks } from './normalize-links.js';
import { link, marbles, reports } from '../../test/support/admission-values.js';

let scheduler: ReturnType<typeof marbles>;
let drops: ReturnType<typeof reports>;
beforeEach(() => {
  scheduler = marbles();
  drops = reports();
});

describe('normalizeLinks', () => {
  it('resolves against the base and normalizes, in order; drops what is not http(s)', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: link('../B/./c?'), b: link('mailto:x@a.test'), c: link('HTTP://A.TEST:80/%7Ex') };
      expectObservable(cold('a-b-c|', values).pipe(normalizeLinks(drops.report))).toBe('a---c|', {
        a: { candidate: values.a, url: 'http://a.test/B/c' },
        c: { candidate: values.c, url: 'http://a.test/~x' },
      });
    });
    expect(drops.reported).toEqual([['unsupported-scheme', 'mailto:x@a.test']]);
  });
});

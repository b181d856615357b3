import { describe, expect, it } from 'vitest';
import { inLinkCounts } from '../frontier/in-link-counts.js';
import { countInLinks } from './count-in-links.js';
import { admissible, marbles } from '../../test/support/admission-values.js';

describe('countInLinks', () => {
  it('lets everything through as it comes, counting links found on pages, not seeds, redirects or known pages', () => {
    const counts = inLinkCounts();
    marbles().run(({ cold, expectObservable }) => {
      const values = {
        a: admissible('http://a.test/x'),
        b: admissible('http://a.test/x', 2),
        c: { candidate: { href: 'http://a.test/x', depth: 0, seed: true }, url: 'http://a.test/x' },
        d: admissible('http://a.test/x', 1, { redirects: 1, originalUrl: 'http://a.test/old' }),
        e: { candidate: { href: 'http://a.test/x', depth: 1 }, url: 'http://a.test/x' },
        f: admissible('http://a.test/y'),
      };
      expectObservable(cold('ab-cdef|', values).pipe(countInLinks(counts))).toBe('ab-cdef|', values);
    });
    expect([counts.get('http://a.test/x'), counts.get('http://a.test/y'), counts.get('http://a.test/z')]).toEqual([2, 1, 0]);
  });
});

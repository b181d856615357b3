import { beforeEach, describe, expect, it } from 'vitest';
import { linkPolicy } from '../url/link-policy.js';
import { followPolicy } from './follow-policy.js';
import { admissible, marbles, reports } from '../../test/support/admission-values.js';

let scheduler: ReturnType<typeof marbles>;
let drops: ReturnType<typeof reports>;
beforeEach(() => {
  scheduler = marbles();
  drops = reports();
});

describe('followPolicy', () => {
  const policy = () => linkPolicy({ scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [['\\.tmp$', '']] });

  it('applies scope and the lists, but lets seeds and links from a sitemap of the accept list through', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const values = {
        a: admissible('http://a.test/x'),
        b: admissible('http://b.test/x'),
        c: admissible('http://a.test/x.tmp'),
        d: admissible('http://b.test/seed', 0, { seed: true }),
      };
      expectObservable(cold('abcd|', values).pipe(followPolicy(policy(), drops.report))).toBe('a--d|', values);
    });
    expect(drops.reported).toEqual([['out-of-scope', 'http://b.test/x'], ['rejected', 'http://a.test/x.tmp']]);
  });
});

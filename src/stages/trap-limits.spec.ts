import { beforeEach, describe, expect, it } from 'vitest';
import { trapLimits } from './trap-limits.js';
import { admissible, marbles, reports } from '../../test/support/admission-values.js';

let scheduler: ReturnType<typeof marbles>;
let drops: ReturnType<typeof reports>;
beforeEach(() => {
  scheduler = marbles();
  drops = reports();
});

describe('trapLimits', () => {
  it('drops too deep, too long and repeated paths, each with its reason', () => {
    const limits = { maxDepth: 2, maxUrlLength: 40, maxPathRepetition: 2 };
    scheduler.run(({ cold, expectObservable }) => {
      const values = {
        a: admissible('http://a.test/ok', 2),
        b: admissible('http://a.test/deep', 3),
        c: admissible(`http://a.test/${'x'.repeat(40)}`),
        d: admissible('http://a.test/a/b/a/b/a/b/'),
      };
      expectObservable(cold('abcd|', values).pipe(trapLimits(limits, drops.report))).toBe('a---|', values);
    });
    expect(drops.reported.map(([reason]) => reason)).toEqual(['too-deep', 'too-long', 'path-repetition']);
  });
});

import { describe, expect, it } from 'vitest';
import { inLinkCounts } from '../frontier/in-link-counts.js';
import { defaultPrioritizer, type Prioritizer } from '../frontier/prioritizer.js';
import { levelRose, prioritize, requestLevelRose } from './prioritize.js';
import { admissible, marbles, request } from '../../test/support/admission-values.js';

/** In-link counts with `n` links counted to `url`, and the priority context over them. */
function linked(levels: number, links: Record<string, number>) {
  const counts = inLinkCounts();
  for (const [url, n] of Object.entries(links)) for (let i = 0; i < n; i++) counts.add(url);
  return { counts, ctx: { levels, inLinks: (url: string) => counts.get(url) } };
}

describe('prioritize', () => {
  it('gives each request, in order, its level by the default prioritizer: seeds on top, others by in-links', () => {
    const { ctx } = linked(4, { 'http://a.test/1': 1, 'http://a.test/2': 5, 'http://a.test/3': 20, 'http://a.test/4': 300 });
    marbles().run(({ cold, expectObservable }) => {
      const values = {
        s: request('http://a.test/', { depth: 0 }),
        a: request('http://a.test/1'),
        b: request('http://a.test/2'),
        c: request('http://a.test/3'),
        d: request('http://a.test/4'),
      };
      expectObservable(cold('s-abcd|', values).pipe(prioritize(defaultPrioritizer, ctx))).toBe('s-abcd|', {
        s: { ...values.s, level: 4 },
        a: { ...values.a, level: 1 },
        b: { ...values.b, level: 2 },
        c: { ...values.c, level: 3 },
        d: { ...values.d, level: 4 },
      });
    });
  });

  it('keeps a prioritizer\'s answer within 1..levels, whole, and takes no answer as 1', () => {
    const answers: Record<string, number> = { 'http://a.test/0': 0, 'http://a.test/9': 9, 'http://a.test/2.7': 2.7, 'http://a.test/nan': NaN, 'http://a.test/-3': -3 };
    const own: Prioritizer = (req) => answers[req.url]!;
    marbles().run(({ cold, expectObservable }) => {
      const values = Object.fromEntries(Object.keys(answers).map((url, i) => ['abcde'[i]!, request(url)]));
      const levels = [1, 3, 2, 1, 1];
      const expected = Object.fromEntries(Object.entries(values).map(([k, v], i) => [k, { ...v, level: levels[i] }]));
      expectObservable(cold('abcde|', values).pipe(prioritize(own, { levels: 3, inLinks: () => 0 }))).toBe('abcde|', expected);
    });
  });
});

describe('levelRose and requestLevelRose', () => {
  it('say whether the link just counted lifted its URL to a higher level, not whether its level is high', () => {
    // 4 in-links is level 2, 3 was level 1; 5 is level 2 as 4 was; 16 is level 3.
    const { ctx } = linked(4, { 'http://a.test/4': 4, 'http://a.test/5': 5, 'http://a.test/16': 16, 'http://a.test/1': 1 });
    const rose = levelRose(defaultPrioritizer, ctx);
    expect(['4', '5', '16', '1'].map((n) => rose(admissible(`http://a.test/${n}`, 2)))).toEqual([true, false, true, false]);
    const seedRose = requestLevelRose(defaultPrioritizer, ctx);
    expect(seedRose({ url: 'http://a.test/4', depth: 0 })).toBe(false);
    expect(seedRose({ url: 'http://a.test/4', depth: 3 })).toBe(true);
  });

  it('a level already at the top does not rise', () => {
    const { ctx } = linked(2, { 'http://a.test/x': 16 });
    expect(levelRose(defaultPrioritizer, ctx)(admissible('http://a.test/x'))).toBe(false);
  });
});

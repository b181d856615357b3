import { beforeEach, describe, expect, it } from 'vitest';
import { dropWhen, type Admissible } from './drop-when.js';
import { admissible, marbles, reports } from '../../test/support/admission-values.js';

let drops: ReturnType<typeof reports>;
beforeEach(() => {
  drops = reports();
});

describe('dropWhen', () => {
  it('keeps, in order and on time, what the reason finds nothing against, and reports each other value once with its reason', () => {
    const asked: string[] = [];
    const tooDeep = dropWhen<Admissible>(drops.report, (a) => {
      asked.push(a.url);
      return a.candidate.depth > 2 ? 'too-deep' : undefined;
    });
    marbles().run(({ cold, expectObservable }) => {
      const values = { a: admissible('http://a.test/1', 1), b: admissible('http://a.test/2', 3), c: admissible('http://a.test/3', 2), d: admissible('http://a.test/4', 9) };
      expectObservable(cold('a-b-c--d|', values).pipe(tooDeep)).toBe('a---c---|', values);
    });
    expect(drops.reported).toEqual([['too-deep', 'http://a.test/2'], ['too-deep', 'http://a.test/4']]);
    expect(asked).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://a.test/4']);
  });

  it('says which of the values it drops are seeds, so that the crawl warns of them', () => {
    marbles().run(({ cold, expectObservable }) => {
      const values = { a: admissible('http://a.test/link'), s: admissible('http://a.test/seed', 0, { seed: true }), r: { url: 'http://a.test/request' } };
      expectObservable(cold('asr|', values).pipe(dropWhen<{ readonly url: string }>(drops.report, () => 'too-long'))).toBe('---|');
    });
    expect(drops.reported.map(([, url]) => url)).toEqual(['http://a.test/link', 'http://a.test/seed', 'http://a.test/request']);
    expect(drops.seeds).toEqual(['http://a.test/seed']);
  });

  it('drops and reports what comes before an error, then passes the error on', () => {
    marbles().run(({ cold, expectObservable }) => {
      expectObservable(cold('a#', { a: admissible('http://a.test/1') }).pipe(dropWhen(drops.report, () => 'rejected'))).toBe('-#');
    });
    expect(drops.reported).toEqual([['rejected', 'http://a.test/1']]);
  });
});

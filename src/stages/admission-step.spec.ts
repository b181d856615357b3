import { describe, expect, it } from 'vitest';
import { andThen, stepOperator } from './admission-step.js';
import { marbles } from '../../test/support/admission-values.js';

const positive = (n: number): number | undefined => (n > 0 ? n : undefined);

describe('andThen', () => {
  it('runs the second step on what the first passed on, and nothing on what it dropped', () => {
    const seen: number[] = [];
    const both = andThen(positive, (n: number) => {
      seen.push(n);
      return n % 2 === 0 ? `even ${n}` : undefined;
    });
    expect([both(2), both(3), both(-2)]).toEqual(['even 2', undefined, undefined]);
    expect(seen).toEqual([2, 3]);
  });

  it('runs more steps in order, stopping at the first that drops', () => {
    const three = andThen(positive, (n: number) => n - 1, (n: number) => (n > 0 ? `${n} left` : undefined));
    expect([three(3), three(1), three(-1)]).toEqual(['2 left', undefined, undefined]);
  });
});

describe('stepOperator', () => {
  it('passes on what the step returns, in order, and drops what it returns nothing for', () => {
    marbles().run(({ cold, expectObservable }) => {
      expectObservable(cold('abc-d|', { a: 1, b: -1, c: 2, d: 0 }).pipe(stepOperator(positive))).toBe('a-c--|', { a: 1, c: 2 });
    });
  });

  it('ends the stream with the error a step throws, as map does', () => {
    marbles().run(({ cold, expectObservable }) => {
      const step = (n: number): number => {
        if (n === 2) throw new Error('two');
        return n;
      };
      expectObservable(cold('abc|', { a: 1, b: 2, c: 3 }).pipe(stepOperator(step))).toBe('a#', { a: 1 }, new Error('two'));
    });
  });
});

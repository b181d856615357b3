import { describe, expect, it } from 'vitest';
import type { ConfValue } from './parse-conf.js';
import { booleanValue, choiceOf, numberOf, regexList, urlList } from './value-parsers.js';

const v = (text: string): ConfValue => ({ kind: 'scalar', text, line: 1 });

describe('value parsers', () => {
  it.each([
    ['true', true], ['Yes', true], ['ON', true], ['1', true],
    ['false', false], ['no', false], ['Off', false], ['0', false],
  ])('reads %s as %s', (text, expected) => {
    expect(booleanValue(v(text), 'k')).toBe(expected);
  });

  it('converts units after checking bounds, and can read below-minimum as zero', () => {
    expect(numberOf({ factor: 1000 })(v('3'), 'k')).toBe(3000);
    expect(numberOf({ fraction: true, factor: 2 })(v('1.25'), 'k')).toBe(2.5);
    expect(numberOf({ belowMinIsZero: true })(v('-9'), 'k')).toBe(0);
    expect(() => numberOf({ min: 1, max: 4 })(v('5'), 'k')).toThrow('k must be at most 4, not 5');
    expect(() => numberOf()(v('99999999999999999'), 'k')).toThrow('k must be at most 9007199254740991');
  });

  it('matches choices case-insensitively and returns the canonical word', () => {
    expect(choiceOf(['seed', 'csv'])(v('CSV'), 'index-format')).toBe('csv');
  });

  it('takes a single value as a list of one', () => {
    expect(urlList(v('https://a.test'), 'starting-points')).toEqual(['https://a.test']);
    expect(regexList(v('a|b'), 'reject-list')).toEqual([/a|b/]);
  });

  it('keeps seeds as written, refusing what is not an absolute http(s) URL', () => {
    expect(urlList(v('http://A.test/x/../y'), 's')).toEqual(['http://A.test/x/../y']);
    for (const bad of ['www.a.test', 'mailto:a@b.test', 'http://', '']) {
      expect(() => urlList(v(bad), 's'), bad).toThrow('is not an absolute http(s) URL in s');
    }
  });
});

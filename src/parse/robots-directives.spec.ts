import { describe, expect, it } from 'vitest';
import { parseRobotsDirectives } from './robots-directives.js';

const both = { noindex: true, nofollow: true };
const neither = { noindex: false, nofollow: false };

describe('parseRobotsDirectives', () => {
  it.each([
    ['noindex', { noindex: true, nofollow: false }],
    ['NOFOLLOW', { noindex: false, nofollow: true }],
    ['noindex, nofollow', both],
    ['noindex nofollow', both],
    ['none', both],
    ['all', neither],
    ['index, follow, noarchive', neither],
    ['max-snippet:20, nofollow', { noindex: false, nofollow: true }],
    ['unavailable_after: 25 Jun 2010 15:00:00 PST, noindex', { noindex: true, nofollow: false }],
    ['', neither],
  ])('reads %j', (value, expected) => {
    expect(parseRobotsDirectives(value, 'tarantula')).toEqual(expected);
  });

  it('applies rules after a user agent prefix only to that agent', () => {
    expect(parseRobotsDirectives('googlebot: noindex, nofollow', 'tarantula')).toEqual(neither);
    expect(parseRobotsDirectives('Tarantula: noindex, nofollow', 'tarantula')).toEqual(both);
    expect(parseRobotsDirectives('googlebot: none, tarantula: nofollow', 'tarantula')).toEqual({ noindex: false, nofollow: true });
    expect(parseRobotsDirectives('tarantula:noindex', 'tarantula')).toEqual({ noindex: true, nofollow: false });
    expect(parseRobotsDirectives('tarantula: noindex')).toEqual(neither);
  });

  it('adds several header values up, each with its own agent scope', () => {
    expect(parseRobotsDirectives(['otherbot: none', 'nofollow'], 'tarantula')).toEqual({ noindex: false, nofollow: true });
    expect(parseRobotsDirectives(['noindex', 'tarantula: nofollow'], 'tarantula')).toEqual(both);
    expect(parseRobotsDirectives(undefined)).toEqual(neither);
  });
});

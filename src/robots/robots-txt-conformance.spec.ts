import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from './robots-txt.js';

interface ConformanceCase {
  readonly name: string;
  readonly robotstxt_base64: string;
  readonly useragent: string;
  readonly url: string;
  readonly expected_allowed: boolean;
  readonly test_type: 'STANDARD' | 'GOOGLE_SPECIFIC';
}

const fixture = new URL('../../fixtures/testdata/robotstxt-spec-correctness/correctness.json', import.meta.url);
const { cases } = JSON.parse(readFileSync(fixture, 'utf8')) as { cases: ConformanceCase[] };

/**
 * Google-specific cases we answer differently on purpose, with our answer. The test asserts our
 * answer, so a change of behaviour shows up here either way.
 */
const DEVIATIONS: ReadonlyMap<string, { readonly ours: boolean; readonly reason: string }> = new Map([
  [
    'correctness/user-agent-name#1.2',
    {
      ours: true,
      reason:
        'Google compares the whole caller string "Foo Bar" with the token "Foo" and falls back to `*`; ' +
        'we reduce the crawler user agent to its product token first (SPEC: `tarantula/VERSION` → `tarantula`), ' +
        'so "Foo Bar" is the agent "Foo" and gets the Foo group.',
    },
  ],
]);

describe('robots.txt conformance (google/robotstxt-spec-test, correctness set)', () => {
  it('has the 146 cases the README promises: 124 STANDARD, 22 GOOGLE_SPECIFIC', () => {
    expect(cases).toHaveLength(146);
    expect(cases.filter((c) => c.test_type === 'STANDARD')).toHaveLength(124);
  });

  it('deviates from no STANDARD case and only from cases that exist', () => {
    for (const name of DEVIATIONS.keys()) {
      expect(cases.find((c) => c.name === name)?.test_type, name).toBe('GOOGLE_SPECIFIC');
    }
  });

  it.each(cases.map((c) => [c.name, c.test_type, c] as const))('%s (%s)', (_name, _type, c) => {
    const robots = parseRobotsTxt(Buffer.from(c.robotstxt_base64, 'base64'));
    const deviation = DEVIATIONS.get(c.name);
    const actual = robots.isAllowed(c.url, c.useragent);
    if (deviation === undefined) expect(actual).toBe(c.expected_allowed);
    else {
      expect(deviation.ours).not.toBe(c.expected_allowed);
      expect(actual, deviation.reason).toBe(deviation.ours);
    }
  });
});

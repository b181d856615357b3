import { describe, expect, it } from 'vitest';
import type { RuleSpec } from './match-rules.js';
import { groupRobotsLines } from './robots-txt-groups.js';
import { robotsTxtLines } from './robots-txt-lines.js';

const group = (text: string) => groupRobotsLines(robotsTxtLines(text));
const rules = (text: string, token: string): RuleSpec[] | undefined => group(text).groups.get(token)?.rules;

describe('groupRobotsLines', () => {
  it('files one group under every token of its User-agent lines, by product token', () => {
    const { groups } = group('User-agent: Foo Bar\nUser-agent: baz/1.0\nUser-agent: *\nDisallow: /x\n');
    expect([...groups.keys()]).toEqual(['foo', 'baz', '*']);
    for (const g of groups.values()) expect(g.rules).toEqual([{ allow: false, pattern: '/x' }]);
  });

  it('merges later groups for the same token into the first, keeping file order', () => {
    expect(rules('user-agent: a\nallow: /1\nuser-agent: b\ndisallow: /2\nuser-agent: A\ndisallow: /3\n', 'a')).toEqual([
      { allow: true, pattern: '/1' },
      { allow: false, pattern: '/3' },
    ]);
  });

  it('drops rules with an empty pattern and rules under an empty User-agent', () => {
    expect(rules('user-agent: a\ndisallow:\nallow:\n', 'a')).toEqual([]);
    const { groups } = group('user-agent:\ndisallow: /\n');
    expect(groups.size).toBe(0);
  });

  it('escapes non-ASCII in patterns', () => {
    expect(rules('user-agent: a\nallow: /ツ\n', 'a')).toEqual([{ allow: true, pattern: '/%E3%83%84' }]);
  });

  it('adds an Allow for the directory of an allowed index.html or index.htm (Google)', () => {
    expect(rules('user-agent: a\nallow: /d/index.html\nallow: /index.htm\ndisallow: /e/index.html\n', 'a')).toEqual([
      { allow: true, pattern: '/d/index.html' },
      { allow: true, pattern: '/d/$' },
      { allow: true, pattern: '/index.htm' },
      { allow: true, pattern: '/$' },
      { allow: false, pattern: '/e/index.html' },
    ]);
    expect(rules('user-agent: a\nallow: /d/index.html5\n', 'a')).toHaveLength(1);
  });

  it('keeps sitemaps out of groups: a Sitemap line does not end a User-agent run', () => {
    const parsed = group('user-agent: a\nsitemap: https://e.com/s.xml\nuser-agent: b\ndisallow: /\n');
    expect(parsed.groups.get('a')?.rules).toEqual([{ allow: false, pattern: '/' }]);
    expect(parsed.sitemaps).toEqual(['https://e.com/s.xml']);
  });
});

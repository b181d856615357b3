import { describe, expect, it } from 'vitest';
import { compileRules, type RuleSpec } from './match-rules.js';

const allow = (pattern: string): RuleSpec => ({ allow: true, pattern });
const disallow = (pattern: string): RuleSpec => ({ allow: false, pattern });

describe('compileRules', () => {
  it.each([
    ['no rule matches', [disallow('/a')], '/b', undefined],
    ['the longer pattern wins', [allow('/p'), disallow('/page')], '/page', false],
    ['the longer pattern wins, in either order', [disallow('/page'), allow('/p')], '/page', false],
    ['a wildcard pattern counts every octet', [allow('/page'), disallow('/*.html')], '/page.html', false],
    ['a shorter literal prefix can still be longer', [allow('/x/page.'), disallow('/*.html')], '/x/page.html', true],
    ['Allow wins a tie', [disallow('/folder'), allow('/folder')], '/folder/x', true],
    ['Allow wins a tie of different patterns', [disallow('/a*c'), allow('/ab$')], '/ab', true],
    ['the end anchor counts as an octet', [allow('/$'), disallow('/')], '/', true],
    ['an anchored rule does not match a longer path', [allow('/$'), disallow('/')], '/page', false],
    ['a root wildcard rule meets deep literal rules', [allow('/a/b/c/d'), disallow('*d')], '/a/b/c/d', true],
  ] as const)('%s', (_what, rules, path, decision) => {
    expect(compileRules(rules).decide(path)).toBe(decision);
  });

  it('says when no rule disallows anything, so that no path need be read', () => {
    expect([[], [allow('/')], [allow('/'), allow('/a$')], [allow('/'), disallow('/private')], [disallow('/x')]].map((r) => compileRules(r).allowsAll))
      .toEqual([true, true, true, false, false]);
  });

  it('matches patterns whose literal part is deeper than the trie', () => {
    const long = `/${'segment/'.repeat(20)}`;
    const rules = compileRules([disallow(long), allow(`${long}ok`), disallow(`${long}*.pdf$`), disallow('/segment/')]);
    expect(rules.decide(`${long}ok.html`)).toBe(true);
    expect(rules.decide(`${long}ok.pdf`)).toBe(false);
    expect(rules.decide(`${long}other`)).toBe(false);
    expect(rules.decide(`/${'segment/'.repeat(19)}other`)).toBe(false);
    expect(rules.decide('/elsewhere')).toBeUndefined();
  });

  it('picks the right rule among hundreds that share a prefix', () => {
    const specs = Array.from({ length: 500 }, (_, i) => disallow(`/wiki/Special${i}:`));
    specs.push(allow('/wiki/Special42:Allowed'));
    const rules = compileRules(specs);
    expect(rules.size).toBe(501);
    expect(rules.decide('/wiki/Special42:Allowed/x')).toBe(true);
    expect(rules.decide('/wiki/Special42:Other')).toBe(false);
    expect(rules.decide('/wiki/Special499:x')).toBe(false);
    expect(rules.decide('/wiki/Special500:x')).toBeUndefined();
  });

  it('survives a single enormous pattern', () => {
    const huge = `/${'a'.repeat(200_000)}`;
    const rules = compileRules([disallow(huge)]);
    expect(rules.decide(huge)).toBe(false);
    expect(rules.decide(huge.slice(0, -1))).toBeUndefined();
  });
});

import { compilePattern, type PathMatcher } from './match-pattern.js';

/** An Allow or Disallow rule, its pattern escaped for matching (see `escapePattern`). */
export interface RuleSpec {
  readonly allow: boolean;
  readonly pattern: string;
}

/** The rules of one group, compiled: answers which rule decides a path. */
export interface RuleMatcher {
  /** Number of rules compiled. */
  readonly size: number;
  /** No rule disallows anything: every path is allowed, without looking at it. */
  readonly allowsAll: boolean;
  /** True (Allow) or false (Disallow) from the most specific matching rule; undefined if none. */
  decide(path: string): boolean | undefined;
}

interface CompiledRule {
  readonly allow: boolean;
  /** RFC 9309 §2.2.2: the most octets wins; patterns are ASCII once escaped. */
  readonly priority: number;
  readonly test: PathMatcher;
}

interface TrieNode {
  next: Map<number, TrieNode> | undefined;
  /** Rules whose literal prefix ends here, best first. */
  readonly rules: CompiledRule[];
}

// Deeper literal prefixes are left to `test`: this bounds the trie's size and depth against
// a hostile file of very long patterns, while real prefixes are far shorter.
const MAX_TRIE_DEPTH = 64;

// Allow beats Disallow at equal length (RFC 9309 §2.2.2: "the least restrictive").
function beats(a: CompiledRule, b: CompiledRule): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.allow && !b.allow);
}

/**
 * Compiles a group's rules for matching a path per RFC 9309 §2.2.2: the matching rule with the
 * longest pattern decides, Allow winning a tie. Rules sit in a character trie under the literal
 * part of their pattern (up to the first `*` or the end `$`), so a lookup walks the path once and
 * tests only rules whose literal prefix it has; a file with hundreds of rules costs little more
 * than one with ten. Nothing is allocated per lookup.
 *
 * @example
 * const rules = compileRules([{ allow: false, pattern: '/' }, { allow: true, pattern: '/*.css$' }]);
 * rules.decide('/site.css') //=> true
 * rules.decide('/page') //=> false
 */
export function compileRules(specs: readonly RuleSpec[]): RuleMatcher {
  const root: TrieNode = { next: undefined, rules: [] };
  for (const { allow, pattern } of specs) {
    let node = root;
    const literal = Math.min(literalPrefixLength(pattern), MAX_TRIE_DEPTH);
    for (let i = 0; i < literal; i++) {
      const c = pattern.charCodeAt(i);
      node.next ??= new Map();
      let child = node.next.get(c);
      if (child === undefined) node.next.set(c, (child = { next: undefined, rules: [] }));
      node = child;
    }
    node.rules.push({ allow, priority: pattern.length, test: compilePattern(pattern) });
  }
  sortRules(root);
  return {
    size: specs.length,
    allowsAll: specs.every((rule) => rule.allow),
    decide(path) {
      let best: CompiledRule | undefined;
      let node: TrieNode | undefined = root;
      for (let i = 0; node !== undefined; i++) {
        const rules = node.rules;
        for (let r = 0; r < rules.length; r++) {
          const rule = rules[r] as CompiledRule;
          if (best !== undefined && !beats(rule, best)) break;
          if (rule.test(path)) {
            best = rule;
            break;
          }
        }
        node = i < path.length ? node.next?.get(path.charCodeAt(i)) : undefined;
      }
      return best?.allow;
    },
  };
}

function literalPrefixLength(pattern: string): number {
  const star = pattern.indexOf('*');
  if (star >= 0) return star;
  return pattern.endsWith('$') ? pattern.length - 1 : pattern.length;
}

function sortRules(root: TrieNode): void {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    node.rules.sort((a, b) => (beats(a, b) ? -1 : beats(b, a) ? 1 : 0));
    if (node.next !== undefined) stack.push(...node.next.values());
  }
}

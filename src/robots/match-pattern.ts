/** A compiled robots.txt path pattern: true when the pattern matches the path. */
export type PathMatcher = (path: string) => boolean;

/**
 * Compiles an RFC 9309 path pattern (already escaped, see `escapePattern`) once into a matcher
 * that allocates nothing per call. Patterns match from the start of the path; `*` matches any run
 * of characters, `$` at the very end anchors the end (elsewhere it is literal). Matching is
 * case-sensitive.
 *
 * Wildcard patterns need no backtracking: each literal segment between `*`s is taken at its
 * leftmost occurrence, which leaves the most room for the rest; an anchored pattern's last
 * segment simply has to end the path after that point.
 *
 * @example
 * const m = compilePattern('/fish*.php$');
 * m('/fishheads/catfish.php') //=> true
 * m('/fish.php?x') //=> false
 */
export function compilePattern(pattern: string): PathMatcher {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  if (!body.includes('*')) return anchored ? (path) => path === body : (path) => path.startsWith(body);
  const parts = body.split('*');
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  const middle = parts.slice(1, -1).filter((part) => part !== '');
  return (path) => {
    // Most wildcard rules are `/*.ext$`: the end decides cheaply before any scanning.
    if (!path.startsWith(first) || (anchored && !path.endsWith(last))) return false;
    let pos = first.length;
    for (let i = 0; i < middle.length; i++) {
      const part = middle[i] as string;
      const at = path.indexOf(part, pos);
      if (at < 0) return false;
      pos = at + part.length;
    }
    if (!anchored) return last === '' || path.indexOf(last, pos) >= 0;
    return path.length - last.length >= pos;
  };
}

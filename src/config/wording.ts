/**
 * The candidate nearest to a misspelt name, if it is near enough to be a likely typo
 * (edit distance at most a third of the name's length, and at most 3).
 *
 * @example
 * suggest('max-pages-numbr', ['max-page-number', 'max-depth']) //=> 'max-page-number'
 * suggest('colour', ['max-depth']) //=> undefined
 */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance with one reused row. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** `did you mean "x"?` appended to a message, or nothing. */
export function didYouMean(name: string, candidates: Iterable<string>, prefix = ''): string {
  const s = suggest(name, candidates);
  return s === undefined ? '' : `; did you mean "${prefix}${s}"?`;
}

/**
 * `a, b or c`, for messages that list what was expected.
 *
 * @example
 * orList(['bfs', 'dfs']) //=> 'bfs or dfs'
 */
export function orList(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

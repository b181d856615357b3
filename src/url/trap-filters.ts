/**
 * True when one path segment occurs more than `max` times in the URL's path, the mark of a
 * relative-link loop such as `/a/b/a/b/a/b/...` (Heritrix's PathologicalPathDecideRule). Empty
 * segments do not count. `max` 0 (or less) means no limit.
 *
 * @example
 * exceedsPathRepetition(new URL('http://x.com/a/b/a/b/a/'), 2); //=> true
 * exceedsPathRepetition(new URL('http://x.com/a/b/a/b/'), 2);   //=> false
 */
export function exceedsPathRepetition(url: { readonly pathname: string }, max: number): boolean {
  if (max <= 0) return false;
  const path = url.pathname;
  // A path with at most `max` segments cannot repeat one more often: skip the split for most URLs.
  let segments = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 0x2f) segments++;
  if (segments <= max) return false;
  const seen = new Map<string, number>();
  for (const segment of path.split('/')) {
    if (segment === '') continue;
    const n = (seen.get(segment) ?? 0) + 1;
    if (n > max) return true;
    seen.set(segment, n);
  }
  return false;
}

/**
 * True when a normalized URL is longer than `max-url-length` characters; 0 (or less) means no limit.
 *
 * @example
 * exceedsUrlLength('http://x.com/' + 'a'.repeat(2000), 1024); //=> true
 */
export function exceedsUrlLength(normalized: string, max: number): boolean {
  return max > 0 && normalized.length > max;
}

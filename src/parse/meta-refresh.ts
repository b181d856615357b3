const isSpace = (c: string | undefined): boolean =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * The target of `<meta http-equiv="refresh" content="...">`, as the HTML standard's "shared
 * declarative refresh steps" read it: a delay, a `;` or `,`, then `url=` (optional, any case)
 * and the URL, optionally quoted. Returns the URL as written (trimmed, unresolved), or
 * `undefined` when the content is invalid or refreshes the page itself.
 *
 * @example
 * refreshTarget('5; URL=\'/new/place.html\'') //=> '/new/place.html'
 * refreshTarget('0;url=http://a.gr/')        //=> 'http://a.gr/'
 * refreshTarget('30')                        //=> undefined
 */
export function refreshTarget(content: string): string | undefined {
  let p = 0;
  while (isSpace(content[p])) p++;
  if (!isDigit(content[p]) && content[p] !== '.') return undefined;
  while (isDigit(content[p]) || content[p] === '.') p++;
  if (p >= content.length) return undefined;
  if (content[p] !== ';' && content[p] !== ',' && !isSpace(content[p])) return undefined;
  while (isSpace(content[p])) p++;
  if (content[p] === ';' || content[p] === ',') p++;
  while (isSpace(content[p])) p++;
  if (p >= content.length) return undefined;
  const start = p;
  if (content.slice(p, p + 3).toLowerCase() === 'url') {
    p += 3;
    while (isSpace(content[p])) p++;
    if (content[p] === '=') {
      p++;
      while (isSpace(content[p])) p++;
    } else {
      p = start; // "url" was the start of the URL itself, e.g. `0; urls.html`
    }
  }
  let url = content.slice(p);
  const quote = content[p];
  if (quote === '"' || quote === "'") {
    const close = content.indexOf(quote, p + 1);
    url = content.slice(p + 1, close === -1 ? undefined : close);
  }
  url = url.trim();
  return url === '' ? undefined : url;
}

import { isHttpUrl } from '../config/value-parsers.js';

/** What one line of an input file gives: a seed URL, nothing (blank, comment, link line), or why it was refused. */
export type SeedLine = { readonly url: string } | { readonly refused: string } | undefined;

/** Shown of a refused line at most, so that a hostile file cannot flood the log with one line. */
const SHOWN = 200;

/**
 * Reads one line of an input file (`-i FILE`): a URL alone, or a line of an index written by an
 * earlier crawl, so that one crawl's output feeds the next. A record line of the seed format gives
 * its second field (the normalized URL), as `cut -f2` would; its link lines (starting with a TAB,
 * or with `@` once `cut -f2` went over them) are skipped; a jsonl line gives its `url`. Blank lines and `#` comments are skipped; surrounding
 * whitespace is trimmed.
 *
 * @example
 * seedLine('  http://a.test/  ')                          //=> { url: 'http://a.test/' }
 * seedLine('0cc1…\thttp://a.test/\thttp://a.test\tA\tutf-8\thtml\t-\t-') //=> { url: 'http://a.test/' }
 * seedLine('{"url":"http://a.test/","title":"A"}')        //=> { url: 'http://a.test/' }
 * seedLine('\t@http://a.test/x anchor')                   //=> undefined
 * seedLine('/about')                                       //=> { refused: '"/about" is not an absolute http(s) URL' }
 */
export function seedLine(line: string): SeedLine {
  if (line.charCodeAt(0) === 9 /* TAB */) return undefined;
  const text = line.trim();
  // `@LINK ANCHOR` is a link line of the seed format after `cut -f2` took its second field.
  if (text === '' || text.startsWith('#') || text.startsWith('@')) return undefined;
  let url = text;
  if (text.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { refused: `not a JSON record (${(err as Error).message})` };
    }
    const field = (value as { url?: unknown } | null)?.url;
    if (typeof field !== 'string') return { refused: 'a JSON record without a "url" string' };
    url = field;
  } else if (text.includes('\t')) {
    url = text.split('\t')[1]!.trim();
  }
  if (!isHttpUrl(url)) {
    const shown = url.length > SHOWN ? `${url.slice(0, SHOWN)}…` : url;
    return { refused: `"${shown}" is not an absolute http(s) URL` };
  }
  return { url };
}

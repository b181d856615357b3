import { fingerprintHi } from './seen-set.js';

const ROWS = 4;
const ROW_BITS = 18;
const MAX_COUNT = 255;

/** How many links to a URL have been seen so far; approximate, never less than the truth (up to its cap). */
export interface InLinkCounts {
  /** Counts one more link to `url`; returns the new count. */
  add(url: string): number;
  /** In-links counted so far for the URL (0 for one never linked). */
  get(url: string): number;
}

/**
 * In-link counts in a fixed 1 MiB whatever the crawl's size: a count-min sketch (Cormode and
 * Muthukrishnan 2005) of 4 rows of 2^18 one-byte counters, with conservative update (only the
 * smallest counters of a URL grow), saturating at 255. A URL's count is the smallest of its 4
 * counters: never below the true count, and above it only by collisions — rare while the crawl
 * has seen fewer distinct link targets than a row has counters, and then mostly among URLs with
 * few links, which is where a prioritizer's coarse levels do not look.
 *
 * @example
 * const counts = inLinkCounts();
 * counts.add('http://a.test/'); counts.add('http://a.test/') //=> 2
 */
export function inLinkCounts(): InLinkCounts {
  const cells = new Uint8Array(ROWS << ROW_BITS);
  const mask = (1 << ROW_BITS) - 1;
  const at = new Int32Array(ROWS);
  // Admission counts a link, then its prioritizer asks for the same URL's count (twice when the
  // URL was seen before): the last URL's cells are kept, so each link is hashed once.
  let located: string | undefined;
  // Row i's cell is h1 + i·h2 (Kirsch and Mitzenmacher): two hashes give all four rows.
  const locate = (url: string): void => {
    if (url === located) return;
    located = url;
    const h1 = fingerprintHi(url);
    // The second hash from the first by one more multiply-xorshift: independent enough for the rows, half the cost.
    let h2 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d);
    h2 = (h2 ^ (h2 >>> 12)) | 1;
    for (let i = 0; i < ROWS; i++) at[i] = (i << ROW_BITS) | ((h1 + Math.imul(i, h2)) & mask);
  };
  const least = (): number => {
    let min = MAX_COUNT;
    for (let i = 0; i < ROWS; i++) min = Math.min(min, cells[at[i]!]!);
    return min;
  };
  return {
    add(url) {
      locate(url);
      const count = least();
      if (count === MAX_COUNT) return count;
      for (let i = 0; i < ROWS; i++) if (cells[at[i]!] === count) cells[at[i]!] = count + 1;
      return count + 1;
    },
    get(url) {
      locate(url);
      return least();
    },
  };
}

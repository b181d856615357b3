import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NearDuplicateIndex } from '../frontier/near-duplicate-index.js';
import { extractHtml } from './extract-html.js';
import { hammingDistance, SimHasher } from './simhash.js';

const DIR = join(import.meta.dirname, '../../fixtures/near-duplicates');
const BITS = 3; // near-duplicate-bits' default
interface Pair { readonly a: string; readonly b: string; readonly near: boolean; readonly what: string }
const pairs = JSON.parse(readFileSync(join(DIR, 'pairs.json'), 'utf8')) as Pair[];
const simhashOf = (file: string): string => extractHtml(readFileSync(join(DIR, file), 'utf8'), { simhash: true }).simhash!;
const hashOf = (text: string): string => extractHtml(text, { simhash: true }).simhash!;

describe('SimHash of the visible text', () => {
  it('is 16 hex digits, the same for the same text, and blind to markup, scripts and styles', () => {
    const text = '<p>The quick brown fox jumps over the lazy dog near the river bank at dawn.</p>';
    expect(hashOf(text)).toMatch(/^[0-9a-f]{16}$/);
    expect(hashOf(text)).toBe(hashOf(text));
    expect(hashOf('<div class="x"><P>The quick <b>brown</b> fox jumps over the <i>lazy</i> dog near the river bank at dawn.</P></div>')).toBe(hashOf(text));
    expect(hashOf(text + '<script>var tracking = "a b c d e f g";</script><style>p { color: red }</style>')).toBe(hashOf(text));
    expect(hashOf('<p>The quick brown fox &amp; the lazy dog</p>')).toBe(hashOf('<p>The quick brown fox & the lazy dog</p>'));
    expect(hashOf('<p>The QUICK brown fox</p>')).toBe(hashOf('<p>the quick brown fox</p>'));
    expect(extractHtml(text).simhash).toBeUndefined();
  });

  it('separates words at block tags but not inside inline ones', () => {
    expect(hashOf('<p>alpha</p><p>beta gamma</p>')).toBe(hashOf('alpha beta gamma'));
    expect(hashOf('al<b>pha</b> beta gamma')).toBe(hashOf('alpha beta gamma'));
    expect(hashOf('al<p>pha beta gamma')).not.toBe(hashOf('alpha beta gamma'));
  });

  it('hashes a text fed in pieces as the whole', () => {
    const whole = new SimHasher();
    whole.text('one two three four five', 0, 23);
    const pieces = new SimHasher();
    pieces.text('xxone two th', 2, 12);
    pieces.text('ree four five', 0, 13);
    expect(pieces.digest()).toBe(whole.digest());
    expect(new SimHasher().digest()).toBe('0000000000000000');
  });

  it(`finds the near-duplicate pairs of fixtures/near-duplicates within ${BITS} bits and no distinct pair (precision and recall printed)`, () => {
    const rows = pairs.map((p) => {
      const distance = hammingDistance(simhashOf(p.a), simhashOf(p.b));
      return { ...p, distance, found: distance <= BITS };
    });
    const truePositives = rows.filter((r) => r.near && r.found).length;
    const precision = truePositives / rows.filter((r) => r.found).length;
    const recall = truePositives / rows.filter((r) => r.near).length;
    const lines = rows.map((r) => `${String(r.distance).padStart(3)}  ${r.near ? 'near    ' : 'distinct'}  ${r.found ? 'found' : '-    '}  ${r.a} / ${r.b}: ${r.what}`);
    console.log(`bits  pair      k=${BITS}\n${lines.join('\n')}\nprecision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} (${truePositives} of ${rows.filter((r) => r.near).length})`);
    // Edits of about 1 % of a page's words put two SimHashes 2 to 3 bits apart on average (the angle
    // between their shingle vectors over π, times 64), so at k = 3 some are missed (README); none
    // is far, and every distinct pair is far beyond the line.
    expect(precision).toBe(1);
    expect(recall).toBeGreaterThanOrEqual(0.7);
    expect(Math.max(...rows.filter((r) => r.near).map((r) => r.distance))).toBeLessThanOrEqual(2 * BITS);
    expect(Math.min(...rows.filter((r) => !r.near).map((r) => r.distance))).toBeGreaterThan(4 * BITS);
  });

  it('the index finds a near-duplicate exactly when comparing every pair does', () => {
    const files = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
    const index = new NearDuplicateIndex(BITS);
    for (const file of files) {
      const h = simhashOf(file);
      const brute = files.slice(0, files.indexOf(file)).some((earlier) => hammingDistance(simhashOf(earlier), h) <= BITS);
      expect(index.find(h, file) !== undefined, file).toBe(brute);
      index.add(h, file);
    }
  });
});

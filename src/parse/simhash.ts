/** Words per shingle: enough that same-topic pages share few shingles, few enough that one edited word changes only three. */
const SHINGLE = 3;

const FNV_OFFSET = 0x811c9dc5;

const fmix = (h: number): number => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
};

/** For ASCII: 0 where a word ends, else the character lower-cased. */
const ASCII_WORD = new Uint8Array(128).map((_, c) => ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) ? c : c >= 65 && c <= 90 ? c + 32 : 0));

/** Beyond ASCII, letters and digits of any script continue a word; Latin-1 punctuation and spaces, the General Punctuation block, ideographic space and BOM end it. */
const isWordCharAbove127 = (c: number): boolean =>
  (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && (c < 0x2000 || c > 0x206f) && c !== 0x3000 && c !== 0xfeff) || c === 0xaa || c === 0xb5 || c === 0xba;

/** Where the name or number of a character reference that starts at `from` ends (`#`, ASCII letters and digits). */
function referenceEnd(s: string, from: number, to: number): number {
  let i = from;
  for (let c = s.charCodeAt(i); i < to && (c === 35 || (c < 128 && ASCII_WORD[c] !== 0)); c = s.charCodeAt(++i));
  return i;
}

/**
 * A 64-bit SimHash (Charikar 2002; Manku, Jain and Das Sarma, WWW 2007) of a text's word
 * 3-shingles, fed in pieces as a tokenizer reports text: words are ASCII-lower-cased and hashed
 * with FNV-1a as their characters arrive, so no word string is made. Each shingle's 64-bit hash
 * votes on every bit; rather than 64 counters updated per shingle, each of its 8 bytes is counted
 * in a histogram of that byte position's 256 values (8 increments a shingle), and the bit counts
 * are read from the histograms once, at the end: that is what keeps it cheap beside the scanner.
 * Text with fewer words than a shingle is hashed as one shingle of what it has.
 *
 * @example
 * const h = new SimHasher(); h.text('The quick brown fox', 0, 19); h.digest() //=> '3c1f…' (16 hex digits)
 */
export class SimHasher {
  /** Byte position p of the hash (0 the lowest) taking value v: counted at p × 256 + v. */
  private readonly bytes = new Int32Array(8 * 256);
  private shingles = 0;
  private words = 0;
  private word = FNV_OFFSET; // FNV-1a state of the word being read
  private inWord = false;
  private w1 = 0;
  private w2 = 0;

  /**
   * Adds `s.slice(from, to)`; a word may continue from the previous piece (inline markup such as
   * `<b>` splits no word). A `&` ends a word, and so does the character reference it starts, which
   * is not decoded: references mostly stand for punctuation and spaces (`&amp;`, `&lt;`, `&nbsp;`).
   */
  text(s: string, from: number, to: number): void {
    // The word's state lives in locals while the loop runs: V8 keeps them in registers, not in the object.
    let word = this.word;
    let inWord = this.inWord;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      const lower = c < 128 ? ASCII_WORD[c]! : isWordCharAbove127(c) ? c : 0;
      if (lower !== 0) {
        word = Math.imul(word ^ lower, 0x01000193);
        inWord = true;
        continue;
      }
      if (inWord) {
        this.endWord(word);
        word = FNV_OFFSET;
        inWord = false;
      }
      if (c === 38 /* & */) i = referenceEnd(s, i + 1, to) - 1;
    }
    this.word = word;
    this.inWord = inWord;
  }

  /** Ends the word being read: a block, a line break or a hidden element comes between. */
  boundary(): void {
    if (this.inWord) {
      this.endWord(this.word);
      this.word = FNV_OFFSET;
      this.inWord = false;
    }
  }

  /** The hash as 16 lowercase hex digits. */
  digest(): string {
    this.boundary();
    if (this.words > 0 && this.words < SHINGLE) this.vote(this.w2, this.words > 1 ? this.w1 : 0, 0);
    const n = this.shingles;
    let hi = 0, lo = 0;
    for (let p = 0; p < 8; p++) {
      for (let bit = 0; bit < 8; bit++) {
        // The shingles whose byte p has this bit set: the values in every other run of 2^bit.
        let ones = 0;
        const step = 1 << bit;
        for (let run = p * 256 + step; run < (p + 1) * 256; run += 2 * step) for (let v = run; v < run + step; v++) ones += this.bytes[v]!;
        if (2 * ones <= n) continue;
        if (p < 4) lo |= 1 << (8 * p + bit);
        else hi |= 1 << (8 * (p - 4) + bit);
      }
    }
    return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
  }

  private endWord(word: number): void {
    const w = word >>> 0;
    if (++this.words >= SHINGLE) this.vote(this.w1, this.w2, w);
    this.w1 = this.w2;
    this.w2 = w;
  }

  /** One shingle's vote: the 8 bytes of its hash, each counted in its position's histogram. */
  private vote(a: number, b: number, c: number): void {
    this.shingles++;
    const lo = fmix(Math.imul(a, 0xcc9e2d51) ^ Math.imul(b ^ 0x1b873593, 0x9e3779b1) ^ Math.imul(c ^ 0xe6546b64, 0x85ebca77));
    // The other half: one more multiply-xorshift round of the first (lowbias32's), enough to decorrelate its bits.
    let hi = Math.imul(lo ^ (lo >>> 16) ^ c, 0x7feb352d);
    hi = Math.imul(hi ^ (hi >>> 15), 0x846ca68b);
    hi ^= hi >>> 16;
    const h = this.bytes;
    h[lo & 255]!++;
    h[256 + ((lo >>> 8) & 255)]!++;
    h[512 + ((lo >>> 16) & 255)]!++;
    h[768 + (lo >>> 24)]!++;
    h[1024 + (hi & 255)]!++;
    h[1280 + ((hi >>> 8) & 255)]!++;
    h[1536 + ((hi >>> 16) & 255)]!++;
    h[1792 + (hi >>> 24)]!++;
  }
}

/** Bits set in a 32-bit word. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Hamming distance of two SimHashes written as 16 hex digits. */
export function hammingDistance(a: string, b: string): number {
  return popcount32(parseInt(a.slice(0, 8), 16) ^ parseInt(b.slice(0, 8), 16)) + popcount32(parseInt(a.slice(8), 16) ^ parseInt(b.slice(8), 16));
}

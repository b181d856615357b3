/** Words per shingle: enough that same-topic pages share few shingles, few enough that one edited word changes only three. */
const SHINGLE = 3;

/**
 * As a signed 32-bit integer, as every hash state here is kept: `Math.imul` and `^` read their
 * operands as such anyway, and a state that is sometimes above 2^31 is a double to V8, which made
 * the character loop convert on every word (about 35 % of its time).
 */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** What {@link FOLD} gives a digit: every run of digits is one such character, whatever its length. */
const DIGIT = 0x30;
/** A {@link FOLD} entry whose block of 256 code units has not been classified yet. */
const UNFILLED = 0xffff;

/**
 * Per UTF-16 code unit: 0 where a word ends, {@link DIGIT} for a decimal digit of any script, else
 * the character lower-cased (when that is one code unit). Filled a block of 256 at a time, as text
 * first uses it: classifying all 65,536 up front would cost the first page some milliseconds.
 */
const FOLD = new Uint16Array(65536).fill(UNFILLED);
const DECIMAL = /^\p{Nd}$/u;
const WORD = /^[\p{L}\p{M}\p{N}]$/u;

function fillBlock(c: number): number {
  const from = c & 0xff00;
  for (let u = from; u < from + 256; u++) {
    const ch = String.fromCharCode(u);
    if (u >= 0xd800 && u <= 0xdfff) FOLD[u] = u; // a surrogate: astral letters and emoji continue a word
    else if (DECIMAL.test(ch)) FOLD[u] = DIGIT;
    else if (WORD.test(ch)) {
      const lower = ch.toLowerCase();
      FOLD[u] = lower.length === 1 ? lower.charCodeAt(0) : u;
    } else FOLD[u] = 0;
  }
  return FOLD[c]!;
}
fillBlock(0);

/** Where the name or number of a character reference that starts at `from` ends (`#`, ASCII letters and digits). */
function referenceEnd(u: Uint16Array, from: number, to: number): number {
  let i = from;
  while (i < to && (u[i] === 35 || (u[i]! < 128 && FOLD[u[i]!] !== 0))) i++;
  return i;
}

const fmix = (h: number): number => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
};

/** The byte histograms folded down to bit counts in {@link SimHasher.digest}: scratch, shared since a digest runs to its end. */
const FOLDED = new Int32Array(128);

/**
 * The UTF-16 code units of the string last hashed, copied out once per string (a native copy, a
 * fraction of a nanosecond a character): reading them from a typed array is a plain load, where
 * `charCodeAt` tells one-byte from two-byte, flat from sliced strings on every character, and a
 * page's text comes in hundreds of short pieces of the same string.
 */
let source: string | undefined;
let buffer = Buffer.allocUnsafeSlow(0);
let codes = new Uint16Array(0);
/** The histograms of the last hasher whose digest is done, zeroed for the next: allocating 8 KiB a page showed in the crawl's profile. */
let spare: Int32Array | undefined;
/** Above this, the copy is let go when a hash is done rather than kept for the next page. */
const KEPT_BYTES = 1 << 21;

function codesOf(s: string): Uint16Array {
  if (s === source) return codes;
  if (2 * s.length > buffer.length) {
    buffer = Buffer.allocUnsafeSlow(Math.max(2 * s.length, 2 * buffer.length, 65536));
    codes = new Uint16Array(buffer.buffer, 0, buffer.length >> 1);
  }
  buffer.write(s, 0, 'utf16le');
  source = s;
  return codes;
}

/** A shingle's vote: the 8 bytes of its 64-bit hash (one of a family, picked by `seed`), each counted in its position's histogram of `bytes`. */
function vote(bytes: Int32Array, seed: number, a: number, b: number, c: number): void {
  const lo = fmix(Math.imul(a, 0xcc9e2d51) ^ Math.imul(b ^ 0x1b873593, 0x9e3779b1) ^ Math.imul(c ^ 0xe6546b64, 0x85ebca77) ^ seed);
  // The other half: one more multiply-xorshift round of the first (lowbias32's), enough to decorrelate its bits.
  let hi = Math.imul(lo ^ (lo >>> 16) ^ c, 0x7feb352d);
  hi = Math.imul(hi ^ (hi >>> 15), 0x846ca68b);
  hi ^= hi >>> 16;
  bytes[lo & 255]!++;
  bytes[256 + ((lo >>> 8) & 255)]!++;
  bytes[512 + ((lo >>> 16) & 255)]!++;
  bytes[768 + (lo >>> 24)]!++;
  bytes[1024 + (hi & 255)]!++;
  bytes[1280 + ((hi >>> 8) & 255)]!++;
  bytes[1536 + ((hi >>> 16) & 255)]!++;
  bytes[1792 + (hi >>> 24)]!++;
}

/**
 * A 64-bit SimHash (Charikar 2002; Manku, Jain and Das Sarma, WWW 2007) of a text's word
 * 3-shingles, fed in pieces as a tokenizer reports text. Words are case-folded, and every run of
 * digits in them reads as one placeholder digit, so that what changes on every build of a page
 * (dates, times, counters, build numbers) does not move the hash: `30 Nov 2026 08:14` and
 * `1 Nov 2025 9:02` are the same words. Words are hashed with FNV-1a as their characters arrive,
 * so no string is made. Each shingle's 64-bit hash votes on every bit; rather than 64 counters
 * updated per shingle, each of its 8 bytes is counted in a histogram of that byte position's 256
 * values (8 increments a shingle), and the bit counts are read from the histograms once, at the
 * end. Text with fewer words than a shingle is hashed as one shingle of what it has.
 *
 * @example
 * const h = new SimHasher(); h.text('The quick brown fox', 0, 19); h.digest() //=> '3c1f…' (16 hex digits)
 */
export class SimHasher {
  /**
   * @param seed picks another hash of the same family: another 64 random hyperplanes. What two
   *   pages' distance is on average, over seeds, is what the method can tell apart; one seed's
   *   distance is that plus the luck of its hyperplanes (a test measures both). Stored hashes
   *   use the default.
   */
  constructor(private readonly seed = 0) {
    spare = undefined;
  }

  /** Byte position p of the hash (0 the lowest) taking value v: counted at p × 256 + v. */
  private readonly bytes = spare ?? new Int32Array(8 * 256);
  private shingles = 0;
  private words = 0;
  private word = FNV_OFFSET; // FNV-1a state of the word being read
  /** The last character's {@link FOLD}: 0 between words, {@link DIGIT} inside a run of digits. */
  private last = 0;
  private w1 = 0;
  private w2 = 0;

  /** Whether a word is being read: only then can a tag end one (a caller may skip asking which tag it was). */
  get inWord(): boolean {
    return this.last !== 0;
  }

  /**
   * Adds `s.slice(from, to)`; a word may continue from the previous piece (inline markup such as
   * `<b>` splits no word). A `&` ends a word, and so does the character reference it starts, which
   * is not decoded: references mostly stand for punctuation and spaces (`&amp;`, `&lt;`, `&nbsp;`).
   * Pieces of one string cost no copy each: the string's code units are copied once.
   */
  text(s: string, from: number, to: number): void {
    const u = codesOf(s);
    const bytes = this.bytes, seed = this.seed;
    // The state lives in locals while the loop runs, and a word's end is handled in the loop
    // itself: V8 keeps them in registers, and the loop's speed does not hang on what it inlines.
    let word = this.word, last = this.last, w1 = this.w1, w2 = this.w2, words = this.words, shingles = this.shingles;
    for (let i = from; i < to; i++) {
      const c = u[i]!;
      let f = FOLD[c]!;
      if (f === UNFILLED) f = fillBlock(c);
      if (f > DIGIT) {
        word = Math.imul(word ^ f, FNV_PRIME);
        last = f;
      } else if (f === DIGIT) {
        if (last !== DIGIT) word = Math.imul(word ^ DIGIT, FNV_PRIME);
        last = DIGIT;
      } else {
        if (c === 38 /* & */) i = referenceEnd(u, i + 1, to) - 1;
        if (last === 0) continue;
        const w = word;
        if (++words >= SHINGLE) {
          vote(bytes, seed, w1, w2, w);
          shingles++;
        }
        w1 = w2;
        w2 = w;
        word = FNV_OFFSET;
        last = 0;
      }
    }
    this.word = word;
    this.last = last;
    this.w1 = w1;
    this.w2 = w2;
    this.words = words;
    this.shingles = shingles;
  }

  /** Ends the word being read: a block, a line break or a hidden element comes between. */
  boundary(): void {
    if (this.last === 0) return;
    const w = this.word;
    if (++this.words >= SHINGLE) {
      vote(this.bytes, this.seed, this.w1, this.w2, w);
      this.shingles++;
    }
    this.w1 = this.w2;
    this.w2 = w;
    this.word = FNV_OFFSET;
    this.last = 0;
  }

  /** The hash as 16 lowercase hex digits; the hasher is done with then (its counts go to the next one). */
  digest(): string {
    this.boundary();
    if (this.words > 0 && this.words < SHINGLE) {
      vote(this.bytes, this.seed, this.w2, this.words > 1 ? this.w1 : 0, 0);
      this.shingles++;
    }
    source = undefined; // the page it was may go
    if (buffer.length > KEPT_BYTES) {
      buffer = Buffer.allocUnsafeSlow(0);
      codes = new Uint16Array(0);
    }
    const half = this.shingles / 2;
    let hi = 0, lo = 0;
    for (let p = 0; p < 8; p++) {
      // Bit b's count is the sum over the histogram's upper half of 2^(b+1) values; folding that
      // half onto the lower one leaves the histogram of the bits below b, so 510 additions a byte.
      const h = this.bytes, base = p * 256, g = FOLDED;
      let ones = 0;
      for (let v = 0; v < 128; v++) {
        const upper = h[base + 128 + v]!;
        ones += upper;
        g[v] = h[base + v]! + upper;
      }
      let bits = ones > half ? 0x80 : 0;
      for (let size = 64, bit = 0x40; size > 0; size >>= 1, bit >>= 1) {
        ones = 0;
        for (let v = 0; v < size; v++) {
          const upper = g[size + v]!;
          ones += upper;
          g[v]! += upper;
        }
        if (ones > half) bits |= bit;
      }
      if (p < 4) lo |= bits << (8 * p);
      else hi |= bits << (8 * (p - 4));
    }
    this.bytes.fill(0);
    spare = this.bytes;
    return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
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

// The HTML standard's prescan reads attributes byte by byte ("get an attribute"); so does this.

export const GT = 0x3e, SLASH = 0x2f;
const EQ = 0x3d, DQUOTE = 0x22, SQUOTE = 0x27;

export const isSpace = (b: number | undefined): boolean =>
  b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
const lower = (b: number): number => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

/** ASCII case-insensitive: do `bytes[start, end)` spell `word` (given in lowercase)? */
export function spells(bytes: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (lower(bytes[start + i]!) !== word.charCodeAt(i)) return false;
  return true;
}

/** `bytes[start, end)` read as Latin-1 (the HTML standard's "isomorphic decode"). */
export const latin1 = (bytes: Uint8Array, start: number, end: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');

/**
 * The HTML standard's "get an attribute" over the byte window. Names and values are kept as
 * `[start, end)` ranges so that skipping the attributes of every other tag allocates nothing.
 */
export class AttributeScanner {
  pos = 0;
  nameStart = 0;
  nameEnd = 0;
  valueStart = 0;
  valueEnd = 0;
  readonly end: number;
  constructor(readonly bytes: Uint8Array) {
    this.end = bytes.length;
  }

  /** Reads the next attribute; `false` at `>` or when the window runs out. */
  next(): boolean {
    const { bytes, end } = this;
    let p = this.pos;
    while (p < end && (isSpace(bytes[p]) || bytes[p] === SLASH)) p++;
    if (p >= end || bytes[p] === GT) return this.stop(p, false);
    this.nameStart = p;
    this.valueStart = this.valueEnd = 0;
    // The name runs to `=`, a space, `/` or `>`; a leading `=` belongs to the name.
    for (;; p++) {
      if (p >= end) return this.stop(p, false);
      const b = bytes[p]!;
      if ((b === EQ && p > this.nameStart) || isSpace(b) || b === SLASH || b === GT) break;
    }
    this.nameEnd = p;
    while (p < end && isSpace(bytes[p])) p++;
    if (p >= end) return this.stop(p, false);
    if (bytes[p] !== EQ) return this.stop(p, true);
    p++;
    while (p < end && isSpace(bytes[p])) p++;
    if (p >= end) return this.stop(p, false);
    const quote = bytes[p];
    if (quote === DQUOTE || quote === SQUOTE) {
      const close = bytes.indexOf(quote, p + 1);
      if (close === -1) return this.stop(end, false);
      this.valueStart = p + 1;
      this.valueEnd = close;
      return this.stop(close + 1, true);
    }
    if (quote === GT) return this.stop(p, true);
    this.valueStart = p;
    while (p < end && !isSpace(bytes[p]) && bytes[p] !== GT) p++;
    if (p >= end) return this.stop(p, false);
    this.valueEnd = p;
    return this.stop(p, true);
  }

  private stop(p: number, found: boolean): boolean {
    this.pos = p;
    return found;
  }

  nameIs(word: string): boolean {
    return spells(this.bytes, this.nameStart, this.nameEnd, word);
  }

  /** The value, lowercased as the standard's attribute reader does. */
  value(): string {
    return latin1(this.bytes, this.valueStart, this.valueEnd).toLowerCase();
  }
}

import { decodeHTMLAttribute } from 'entities';

/** The attributes of the start tag being reported; valid only during the `startTag` call. */
export interface TagAttributes {
  /** The value of the first attribute of that (lower-case) name, entities decoded; `''` when it has no value. */
  get(name: string): string | undefined;
}

/** What {@link scanHtml} reports, in document order. */
export interface HtmlHandler {
  /**
   * `name` is lower case; `selfClosing` is the `/>` form, which HTML itself ignores except in SVG and
   * MathML; `foreign`: the tag is an SVG or MathML element (`<svg>` and `<math>` themselves included).
   */
  startTag(name: string, attrs: TagAttributes, selfClosing: boolean, foreign: boolean): void;
  endTag(name: string): void;
  /** `html.slice(from, to)` is character data; `decode`: its character references still need decoding (data and RCDATA, not raw text). */
  text(from: number, to: number, decode: boolean): void;
}

const enum Ch {
  Tab = 9, Lf = 10, Ff = 12, Cr = 13, Space = 32, Bang = 33, Dquote = 34, Dash = 45, Squote = 39,
  Slash = 47, Eq = 61, Gt = 62, Question = 63, LowerA = 97, LowerZ = 122, UpperA = 65, UpperZ = 90,
}

const isSpace = (c: number): boolean => c === Ch.Space || c === Ch.Lf || c === Ch.Tab || c === Ch.Cr || c === Ch.Ff;
const isUpper = (c: number): boolean => c >= Ch.UpperA && c <= Ch.UpperZ;
const isAlpha = (c: number): boolean => (c >= Ch.LowerA && c <= Ch.LowerZ) || isUpper(c);

/** Elements whose content is not markup: RCDATA (true: character references decoded) and raw text (false). */
const TEXT_ONLY = new Map([
  ['title', true], ['textarea', true],
  ['script', false], ['style', false], ['xmp', false], ['iframe', false], ['noembed', false], ['noframes', false],
]);

/**
 * Attribute name and value positions of the current tag, reused from tag to tag so that a tag whose
 * attributes nobody asks for costs no allocation. A value start of -1 is an attribute without one.
 */
class AttributeSpans implements TagAttributes {
  html = '';
  count = 0;
  private spans = new Int32Array(64);

  add(nameFrom: number, nameTo: number, valueFrom: number, valueTo: number): void {
    if ((this.count + 1) * 4 > this.spans.length) {
      const wider = new Int32Array(this.spans.length * 2);
      wider.set(this.spans);
      this.spans = wider;
    }
    const at = this.count++ * 4;
    this.spans[at] = nameFrom;
    this.spans[at + 1] = nameTo;
    this.spans[at + 2] = valueFrom;
    this.spans[at + 3] = valueTo;
  }

  get(name: string): string | undefined {
    const s = this.spans;
    for (let at = 0; at < this.count * 4; at += 4) {
      const from = s[at]!;
      if (s[at + 1]! - from !== name.length || !sameLowerCase(this.html, from, name)) continue;
      const valueFrom = s[at + 2]!;
      if (valueFrom < 0) return '';
      const raw = this.html.slice(valueFrom, s[at + 3]);
      const value = raw.includes('&') ? decodeHTMLAttribute(raw) : raw;
      return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
    }
    return undefined;
  }
}

/** Whether `html` at `from` spells `lower` (lower case, ASCII), ignoring ASCII case. */
function sameLowerCase(html: string, from: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    const c = html.charCodeAt(from + k);
    if ((isUpper(c) ? c + 32 : c) !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * A tokenizer for HTML that reports start tags, end tags and character data, following the HTML
 * standard's tokenization where it decides what is markup: comments (with their abrupt `<!-->`
 * forms, ending at `-->` or `--!>`), bogus comments (`<!x>`, `<?x>`, `</3>`), quoted, unquoted
 * and valueless attributes (a quoted `>` does not end a tag), end tags with attributes, a tag cut
 * by the end of the document (dropped), RCDATA (`title`, `textarea`) and raw text (`script`,
 * `style`, `xmp`, `iframe`, `noembed`, `noframes`, `plaintext`) ending only at their own end tag,
 * and CDATA sections, which are text inside SVG and MathML and bogus comments elsewhere.
 * Text is skipped with `indexOf` and handed over as positions, so a page costs little more than
 * its markup. There is no tree: implied end tags are the caller's business.
 *
 * @example
 * scanHtml('<a href="x">y</a>', {
 *   startTag: (name, attrs) => console.log(name, attrs.get('href')), // a x
 *   endTag: (name) => console.log('/' + name),                       // /a
 *   text: (from, to) => console.log(from, to),                       // 12 13
 * });
 */
export function scanHtml(html: string, handler: HtmlHandler): void {
  const n = html.length;
  const tag = new TagReader(html);
  let foreign = 0; // depth inside <svg> and <math>
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      handler.text(i, n, true);
      return;
    }
    const c = html.charCodeAt(lt + 1);
    if (isAlpha(c)) {
      if (lt > i) handler.text(i, lt, true);
      const name = tag.read(lt + 1);
      if (name === undefined) return; // a tag cut by the end of the document is no tag
      const isForeignRoot = name === 'svg' || name === 'math';
      handler.startTag(name, tag.attrs, tag.selfClosing, foreign > 0 || isForeignRoot);
      i = tag.end;
      const opensForeign = isForeignRoot && !tag.selfClosing;
      if (foreign > 0 || opensForeign) {
        if (opensForeign) foreign++;
      } else if (name === 'plaintext') {
        if (i < n) handler.text(i, n, false);
        return;
      } else {
        const decode = TEXT_ONLY.get(name);
        if (decode !== undefined) {
          const close = findEndTag(html, i, name);
          if (close > i) handler.text(i, close, decode);
          i = close;
        }
      }
    } else if (c === Ch.Slash) {
      if (lt > i) handler.text(i, lt, true);
      const c2 = html.charCodeAt(lt + 2);
      if (isAlpha(c2)) {
        const name = tag.read(lt + 2);
        if (name === undefined) return;
        if (foreign > 0 && (name === 'svg' || name === 'math')) foreign--;
        handler.endTag(name);
        i = tag.end;
      } else if (c2 === Ch.Gt) {
        i = lt + 3; // `</>` is nothing
      } else {
        i = skipPast(html, lt + 2, '>'); // `</3 ...>`: a bogus comment
      }
    } else if (c === Ch.Bang) {
      if (lt > i) handler.text(i, lt, true);
      if (html.startsWith('--', lt + 2)) i = commentEnd(html, lt + 4);
      else if (foreign > 0 && html.startsWith('[CDATA[', lt + 2)) {
        const from = lt + 9;
        const close = html.indexOf(']]>', from);
        const to = close < 0 ? n : close;
        if (to > from) handler.text(from, to, false);
        i = close < 0 ? n : close + 3;
      } else i = skipPast(html, lt + 2, '>');
    } else if (c === Ch.Question) {
      if (lt > i) handler.text(i, lt, true);
      i = skipPast(html, lt + 2, '>');
    } else {
      // A `<` that starts nothing is text: it stays with the text around it.
      const next = html.indexOf('<', lt + 1);
      const to = next < 0 ? n : next;
      handler.text(i, to, true);
      i = to;
    }
  }
}

const isTagNameEnd = (c: number): boolean => isSpace(c) || c === Ch.Slash || c === Ch.Gt;

/**
 * The usual element names, by length and first letter. A name sliced from the page is a new string
 * at every tag, which each lookup after it (the callers' sets and maps, `switch`es, `===`) hashes
 * and compares character by character; one of these constants is hashed once and compared by
 * identity. Other names are sliced as before.
 */
const NAMES: (string[] | undefined)[] = [];
for (const name of (
  'a abbr address area article aside audio b base basefont bdi bdo blockquote body br button canvas caption center cite code col ' +
  'colgroup command data datalist dd details dfn dialog div dl dt em embed fieldset figcaption figure font footer form frame ' +
  'frameset g h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image img input ins kbd keygen label legend li link main map ' +
  'mark math menu meta meter nav noembed noframes noscript object ol optgroup option output p param path picture plaintext pre ' +
  'progress q rp rt ruby s samp script section select slot small source span strong style sub summary sup svg table tbody td ' +
  'template textarea tfoot th thead time title tr track tt u ul var video wbr xmp del'
).split(' ')) (NAMES[nameKey(name.charCodeAt(0), name.length)] ??= []).push(name);

function nameKey(first: number, length: number): number {
  return length < 16 ? (length << 7) | first : 0;
}

/** The constant of {@link NAMES} that `html.slice(from, to)` spells (lower case), or undefined. */
function knownName(html: string, from: number, to: number): string | undefined {
  const names = NAMES[nameKey(html.charCodeAt(from), to - from)];
  if (names === undefined) return undefined;
  next: for (const name of names) {
    for (let k = 1; k < name.length; k++) if (html.charCodeAt(from + k) !== name.charCodeAt(k)) continue next;
    return name;
  }
  return undefined;
}

/** Reads one tag (name and attributes, up to its `>`) at a time; one per scan, reused for every tag. */
class TagReader {
  readonly attrs = new AttributeSpans();
  /** After {@link read}: the position after the tag's `>`. */
  end = 0;
  /** After {@link read}: the tag ended with `/>` (not the end of an unquoted value, as in `href=a/>`). */
  selfClosing = false;

  constructor(private readonly html: string) {
    this.attrs.html = html;
  }

  /** Reads the tag whose name starts at `from`; undefined when the document ends inside it. */
  read(from: number): string | undefined {
    const html = this.html;
    const n = html.length;
    let i = from + 1;
    let upper = isUpper(html.charCodeAt(from));
    for (let c = html.charCodeAt(i); i < n && !isTagNameEnd(c); c = html.charCodeAt(++i)) upper ||= isUpper(c);
    const name = upper ? html.slice(from, i).toLowerCase() : (knownName(html, from, i) ?? html.slice(from, i));
    this.attrs.count = 0;
    this.selfClosing = false;
    for (;;) {
      let c = html.charCodeAt(i);
      while (i < n && (isSpace(c) || c === Ch.Slash)) {
        if (c === Ch.Slash && html.charCodeAt(i + 1) === Ch.Gt) {
          this.selfClosing = true;
          this.end = i + 2;
          return name;
        }
        c = html.charCodeAt(++i);
      }
      if (i >= n) return undefined;
      if (c === Ch.Gt) {
        this.end = i + 1;
        return name;
      }
      const nameFrom = i++; // a first `=` belongs to the name
      while (i < n) {
        c = html.charCodeAt(i);
        if (isSpace(c) || c === Ch.Slash || c === Ch.Gt || c === Ch.Eq) break;
        i++;
      }
      const nameTo = i;
      while (i < n && isSpace(html.charCodeAt(i))) i++;
      if (html.charCodeAt(i) !== Ch.Eq) {
        this.attrs.add(nameFrom, nameTo, -1, -1);
        continue;
      }
      i++;
      while (i < n && isSpace(html.charCodeAt(i))) i++;
      c = html.charCodeAt(i);
      if (c === Ch.Dquote || c === Ch.Squote) {
        const close = html.indexOf(c === Ch.Dquote ? '"' : "'", i + 1);
        if (close < 0) return undefined;
        this.attrs.add(nameFrom, nameTo, i + 1, close);
        i = close + 1;
      } else if (c === Ch.Gt) {
        this.attrs.add(nameFrom, nameTo, -1, -1);
      } else {
        const valueFrom = i;
        while (i < n && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== Ch.Gt) i++;
        this.attrs.add(nameFrom, nameTo, valueFrom, i);
      }
    }
  }
}

/** The position after the next `>` from `from`, or the end of the document. */
function skipPast(html: string, from: number, char: string): number {
  const at = html.indexOf(char, from);
  return at < 0 ? html.length : at + 1;
}

/** Where a comment whose text starts at `from` ends: `<!-->` and `<!--->` end at once; otherwise `-->` or `--!>`. */
function commentEnd(html: string, from: number): number {
  const c = html.charCodeAt(from);
  if (c === Ch.Gt) return from + 1;
  if (c === Ch.Dash && html.charCodeAt(from + 1) === Ch.Gt) return from + 2;
  for (let at = html.indexOf('--', from); at >= 0; at = html.indexOf('--', at + 1)) {
    const next = html.charCodeAt(at + 2);
    if (next === Ch.Gt) return at + 3;
    if (next === Ch.Bang && html.charCodeAt(at + 3) === Ch.Gt) return at + 4;
  }
  return html.length;
}

/** Where the end tag `</name` (any case, followed by whitespace, `/` or `>`) of raw text starting at `from` is; the document's end if none. */
function findEndTag(html: string, from: number, name: string): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    if (sameLowerCase(html, at + 2, name) && (at + 2 + name.length >= html.length || isTagNameEnd(html.charCodeAt(at + 2 + name.length)))) return at;
  }
  return html.length;
}

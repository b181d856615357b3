/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; we parse exactly that much. */
export const ROBOTS_TXT_MAX_BYTES = 512_000;

/** The records a robots.txt line can hold that we act on; any other line is ignored. */
export type RobotsKey = 'user-agent' | 'allow' | 'disallow' | 'crawl-delay' | 'sitemap';

/** One meaningful robots.txt line: a known key (case-folded, typos mapped) and its trimmed value. */
export interface RobotsLine {
  readonly key: RobotsKey;
  readonly value: string;
}

// Keys as Google's reference parser accepts them, typos included: a site that wrote "disalow"
// meant to keep us out, so honouring it errs on the polite side.
const KEYS = new Map<string, RobotsKey>([
  ['user-agent', 'user-agent'],
  ['useragent', 'user-agent'],
  ['user agent', 'user-agent'],
  ['allow', 'allow'],
  ['disallow', 'disallow'],
  ['dissallow', 'disallow'],
  ['dissalow', 'disallow'],
  ['disalow', 'disallow'],
  ['diasllow', 'disallow'],
  ['disallaw', 'disallow'],
  ['crawl-delay', 'crawl-delay'],
  ['sitemap', 'sitemap'],
  ['site-map', 'sitemap'],
]);

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
const LF = 0x0a;
const CR = 0x0d;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * Turns a robots.txt body into text: at most the first 500 KiB, a leading UTF-8 BOM (or the first
 * bytes of one: a truncated BOM is garbage no parser can use) dropped, then decoded as UTF-8 with
 * bad bytes as U+FFFD. When the body is cut, the last, incomplete line is dropped too, so that a
 * half-written `Allow: /a` never becomes a broader `Allow: /`.
 *
 * @example
 * decodeRobotsTxt(new Uint8Array([0xef, 0xbb, 0x55, 0x3a])) //=> 'U:'
 */
export function decodeRobotsTxt(body: Uint8Array | string): string {
  if (typeof body === 'string') {
    // Each UTF-16 unit is at most 3 UTF-8 bytes, so short strings cannot exceed the limit.
    if (body.length * 3 > ROBOTS_TXT_MAX_BYTES) return decodeRobotsTxt(encoder.encode(body));
    return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  }
  let start = 0;
  while (start < UTF8_BOM.length && body[start] === UTF8_BOM[start]) start++;
  let end = body.length;
  if (end > ROBOTS_TXT_MAX_BYTES) {
    const head = body.subarray(0, ROBOTS_TXT_MAX_BYTES);
    end = Math.max(head.lastIndexOf(LF), head.lastIndexOf(CR)) + 1;
  }
  return end <= start ? '' : decoder.decode(body.subarray(start, end));
}

/**
 * Splits robots.txt text into its meaningful lines. Lines end at CR, LF or CRLF; `#` starts a
 * comment; keys are case-insensitive; a line with a missing colon (`disallow /`) is read as Google
 * reads it, when it holds exactly two words. Unknown keys and malformed lines are skipped.
 *
 * @example
 * [...robotsTxtLines('User-Agent: bot # us\r\nDISALLOW /x')]
 * //=> [{ key: 'user-agent', value: 'bot' }, { key: 'disallow', value: '/x' }]
 */
export function* robotsTxtLines(text: string): Generator<RobotsLine> {
  let pos = 0;
  while (pos < text.length) {
    let eol = pos;
    while (eol < text.length && text.charCodeAt(eol) !== LF && text.charCodeAt(eol) !== CR) eol++;
    const line = readLine(text, pos, eol);
    if (line !== undefined) yield line;
    pos = eol + (text.charCodeAt(eol) === CR && text.charCodeAt(eol + 1) === LF ? 2 : 1);
  }
}

function readLine(text: string, start: number, end: number): RobotsLine | undefined {
  const hash = text.indexOf('#', start);
  if (hash >= 0 && hash < end) end = hash;
  const raw = trim(text.slice(start, end));
  if (raw === '') return undefined;
  let sep = raw.indexOf(':');
  let valueStart = sep + 1;
  if (sep < 0) {
    sep = firstSpace(raw);
    if (sep < 0) return undefined;
    valueStart = sep;
  }
  const key = KEYS.get(trim(raw.slice(0, sep)).toLowerCase());
  if (key === undefined) return undefined;
  const value = trim(raw.slice(valueStart));
  // Without a colon, only "key value" is unambiguous; more words could be anything.
  if (valueStart === sep && firstSpace(value) >= 0) return undefined;
  return { key, value };
}

// Not String.prototype.trim: that also strips U+FEFF, and a BOM in mid-file must stay garbage.
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;
}

function trim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isSpace(s.charCodeAt(a))) a++;
  while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

function firstSpace(s: string): number {
  for (let i = 0; i < s.length; i++) if (isSpace(s.charCodeAt(i))) return i;
  return -1;
}

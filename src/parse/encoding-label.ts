// Encoding labels and decoding, through the WHATWG Encoding Standard as Node's `TextDecoder`
// implements it. Decoders are cached per encoding: `decode()` without `{ stream: true }` keeps no
// state between calls, so one instance serves every page.
import { TextDecoder } from 'node:util';

// Keyed by the label as the Standard compares it (ASCII whitespace stripped, ASCII lowercase), and
// only labels that resolved are kept: both maps stay bounded by the Standard's ~230 labels.
const resolved = new Map<string, string>();
const decoders = new Map<string, TextDecoder>();

const EDGE_SPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
const UPPER = /[A-Z]/g;
const toLower = (c: string): string => String.fromCharCode(c.charCodeAt(0) + 0x20);
const normalizeLabel = (label: string): string => label.replace(EDGE_SPACE, '').replace(UPPER, toLower);

/**
 * The encoding a label names, as `TextDecoder.encoding` reports it (lowercase), or `undefined`
 * when the label is unknown — or names an encoding this Node build cannot decode (the
 * `replacement` labels such as `iso-2022-kr`, `x-user-defined`, and `iso-8859-16` without full
 * ICU), which for a crawler amounts to the same.
 *
 * @example
 * resolveEncodingLabel(' Latin1 ') //=> 'windows-1252'
 * resolveEncodingLabel('gb2312')   //=> 'gbk'
 * resolveEncodingLabel('x-sjis')   //=> 'shift_jis'
 * resolveEncodingLabel('klingon')  //=> undefined
 */
export function resolveEncodingLabel(label: string): string | undefined {
  const key = normalizeLabel(label);
  const known = resolved.get(key);
  if (known !== undefined) return known;
  let encoding: string;
  try {
    encoding = new TextDecoder(key).encoding;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  resolved.set(key, encoding);
  return encoding;
}

/**
 * Decodes a document's bytes: invalid sequences become U+FFFD (never an error), and a leading
 * byte order mark of that encoding is dropped.
 *
 * @param encoding a name or label `TextDecoder` accepts, such as `sniffEncoding` returns.
 * @throws RangeError when `encoding` is not one `TextDecoder` knows.
 * @example
 * decodeText(Uint8Array.of(0xc1, 0xe8, 0xde, 0xed, 0xe1), 'windows-1253') //=> 'Αθήνα'
 */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  const name = resolveEncodingLabel(encoding);
  if (name === undefined) throw new RangeError(`Cannot decode the encoding ${JSON.stringify(encoding)}`);
  if (name === 'windows-1252') return decodeWindows1252(bytes);
  let decoder = decoders.get(name);
  if (decoder === undefined) {
    decoder = new TextDecoder(name);
    decoders.set(name, decoder);
  }
  return decoder.decode(bytes);
}

/** What windows-1252 maps 0x80-0x9F to (Encoding Standard, index-windows-1252); the rest is Latin-1. */
const WINDOWS_1252_C1 = '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F'
  + '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';
const HAS_C1 = /[\x80-\x9f]/;
const C1 = /[\x80-\x9f]/g;
const fromC1 = (c: string): string => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!;

/**
 * Node 20.18.3 and later decode `windows-1252` as Latin-1, turning `€`, curly quotes and dashes
 * into C1 controls (nodejs/node#60888), and it is the default for every undeclared page. So it is
 * decoded here: Latin-1 (a native fast path), then the 32 bytes where the two differ.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  return HAS_C1.test(latin1) ? latin1.replace(C1, fromC1) : latin1;
}

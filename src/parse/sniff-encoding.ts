import { isAscii, isUtf8 } from 'node:buffer';
import { analyse } from 'chardet';
import { parseContentType } from './content-type.js';
import { resolveEncodingLabel } from './encoding-label.js';
import { prescanMeta } from './meta-prescan.js';

/** Which step of the HTML standard's order settled the encoding. */
export type EncodingSource = 'bom' | 'header' | 'meta' | 'detected' | 'default';

export interface SniffedEncoding {
  /** As `TextDecoder.encoding` names it: `utf-8`, `windows-1253`, `gbk`, `shift_jis`, ... */
  readonly encoding: string;
  readonly source: EncodingSource;
}

/** The encoding of a document that declares none and shows no evidence (HTML standard, Western locales). */
export const DEFAULT_ENCODING = 'windows-1252';

/** Statistical detection looks at this many leading bytes; more rarely changes its answer. */
const DETECTION_SAMPLE = 64 * 1024;
/**
 * chardet's confidence (0-100) that we trust. Its single-byte recognisers score real pages in the
 * 40s-60s (a Greek windows-1253 page: 49; French windows-1252: 60) and ambiguous text in the
 * 20s-30s with a runner-up close behind (an English page with one `é`: 33 against 27), so a
 * guess is taken only when it is both high enough and clearly ahead.
 */
const MIN_CONFIDENCE = 30;
const MIN_LEAD = 10;

/**
 * Determines a document's encoding in the HTML standard's order: a byte order mark; else the
 * `charset` of the Content-Type (when this Node can decode it); else a `<meta>` in the first 1024
 * bytes ({@link prescanMeta}); else detection — bytes that are valid UTF-8 with some non-ASCII are
 * `utf-8`, other non-ASCII bytes go to chardet, whose guess counts only when it is confident —
 * else `windows-1252`. Pure ASCII without a declaration is `windows-1252` (`default`): it decodes
 * the same either way, and that is what the standard's tests expect.
 *
 * @param bytes the body, or as much of it as was read (a body cut inside a UTF-8 sequence still
 *   counts as UTF-8).
 * @param contentType the `Content-Type` response header as sent.
 * @example
 * sniffEncoding(bytes, 'text/html; charset=ISO-8859-7') //=> { encoding: 'iso-8859-7', source: 'header' }
 * sniffEncoding(new TextEncoder().encode('<meta charset="gb2312">')) //=> { encoding: 'gbk', source: 'meta' }
 * sniffEncoding(new TextEncoder().encode('<p>plain ASCII</p>')) //=> { encoding: 'windows-1252', source: 'default' }
 */
export function sniffEncoding(bytes: Uint8Array, contentType?: string): SniffedEncoding {
  const bom = bomEncoding(bytes);
  if (bom !== undefined) return { encoding: bom, source: 'bom' };
  const { charset } = parseContentType(contentType);
  const declared = charset === undefined ? undefined : resolveEncodingLabel(charset);
  if (declared !== undefined) return { encoding: declared, source: 'header' };
  const meta = prescanMeta(bytes);
  if (meta !== undefined) return { encoding: meta, source: 'meta' };
  const detected = detectEncoding(bytes);
  if (detected !== undefined) return { encoding: detected, source: 'detected' };
  return { encoding: DEFAULT_ENCODING, source: 'default' };
}

function bomEncoding(bytes: Uint8Array): string | undefined {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  return undefined;
}

/**
 * The encoding the bytes themselves suggest, or `undefined` when they tell nothing
 * (pure ASCII) or nothing with confidence.
 */
export function detectEncoding(bytes: Uint8Array): string | undefined {
  if (isAscii(bytes)) return undefined;
  if (isUtf8AllowingCut(bytes)) return 'utf-8';
  const [best, runnerUp] = analyse(bytes.subarray(0, DETECTION_SAMPLE));
  if (best === undefined || best.confidence < MIN_CONFIDENCE) return undefined;
  if (runnerUp !== undefined && best.confidence - runnerUp.confidence < MIN_LEAD) return undefined;
  // chardet names such as `ISO-8859-1` or `EUC-KR` are Encoding Standard labels; its `mbcs`,
  // `sbcs` and `ISO_2022` families are not, and resolve to nothing.
  return resolveEncodingLabel(best.name);
}

/** Valid UTF-8, allowing the last sequence to be cut short (a body read up to a size limit). */
function isUtf8AllowingCut(bytes: Uint8Array): boolean {
  if (isUtf8(bytes)) return true;
  const stop = Math.max(0, bytes.length - 3);
  for (let i = bytes.length - 1; i >= stop; i--) {
    const b = bytes[i]!;
    if (b < 0x80) return false;
    if (b >= 0xc0) {
      const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return bytes.length - i < length && isUtf8(bytes.subarray(0, i));
    }
  }
  return false;
}

/**
 * The characters that text from the web must not bring to a terminal raw, as the body of a regex
 * character class: the C0 controls (ESC starts the sequences that clear a screen or retitle a
 * window), DEL, the C1 controls (U+009B is an 8-bit CSI), and the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make a line read as something else.
 * The bidirectional marks (U+200E, U+200F, U+061C) are left alone: they reorder nothing by
 * themselves, and right-to-left titles use them.
 */
export const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';

const CONTROL = new RegExp(`[${CONTROL_CLASS}]`);
const CONTROLS = new RegExp(`[${CONTROL_CLASS}]`, 'g');

/**
 * The text with each control character (see {@link CONTROL_CLASS}) replaced by `?`, except those
 * in `keep`, which a format already handles; the text itself when it holds none (one regex test).
 *
 * @example
 * replaceControls('a\x1b[2Jb') //=> 'a?[2Jb'
 * replaceControls('a\nb\x07', '\n') //=> 'a\nb?'
 */
export function replaceControls(text: string, keep = ''): string {
  if (!CONTROL.test(text)) return text;
  return keep === '' ? text.replace(CONTROLS, '?') : text.replace(CONTROLS, (c) => (keep.includes(c) ? c : '?'));
}

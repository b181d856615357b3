import { CONTROL_CLASS, replaceControls } from '../log/control-characters.js';
import type { IndexRecord } from '../model/index-record.js';

/** The scalar fields of an index record, in the order SPEC §6 lists them (jsonl and csv). */
export const SCALAR_FIELDS = [
  'md5', 'url', 'originalUrl', 'title', 'encoding', 'type', 'lastModified', 'serverDate', 'status', 'etag',
  'localPath', 'contentLength', 'contentMd5', 'depth', 'fetchedAt', 'durationMs', 'duplicateOf',
] as const satisfies readonly (keyof IndexRecord)[];

/** Fields that may be `null` (`-` in the seed format, empty in csv). */
export const NULLABLE_FIELDS: ReadonlySet<string> = new Set(['title', 'encoding', 'lastModified', 'serverDate', 'etag', 'duplicateOf']);

/** Fields holding numbers. */
export const NUMBER_FIELDS: ReadonlySet<string> = new Set(['status', 'contentLength', 'depth', 'durationMs']);

/** Whatever any common reader takes for a line or field break: tab, LF, VT, FF, CR, FS-RS, NEL, LS, PS. */
const BREAKS = /[\t\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/g;
/** A control character, or a line break of some line readers (LS, PS); every other break is a control character. */
const UNSAFE = new RegExp(`[${CONTROL_CLASS}\\u2028\\u2029]`);
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/**
 * The text as one line that a terminal shows as it is: every tab and line break becomes a space,
 * so that line- and tab-separated formats stay parseable whatever a page's title or anchor holds,
 * and every other control character (ESC, DEL, C1, bidirectional overrides) a `?`.
 *
 * @example
 * oneSafeLine('a\tb\r\nc\x1b[2J') //=> 'a b  c?[2J'
 */
export function oneSafeLine(text: string): string {
  return UNSAFE.test(text) ? replaceControls(text.replace(BREAKS, ' ')) : text;
}

/**
 * A line of JSON with every control character and LS/PS written as a `\\u` escape, as
 * `JSON.stringify` writes only those below U+0020: the line then shows nothing raw at a terminal,
 * breaks no line reader, and parses back to the same values. Only strings can hold such characters.
 *
 * @example
 * escapeControls(JSON.stringify({ title: 'a\u009bb\u202e' })) //=> '{"title":"a\\u009bb\\u202e"}'
 */
export function escapeControls(json: string): string {
  return UNSAFE.test(json) ? json.replace(UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

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

/**
 * The text with every tab and line break replaced by a space, so that line- and tab-separated
 * formats stay parseable whatever a page's title or anchor holds.
 *
 * @example
 * oneLine('a\tb\r\nc') //=> 'a b  c'
 */
export function oneLine(text: string): string {
  return text.search(BREAKS) === -1 ? text : text.replace(BREAKS, ' ');
}

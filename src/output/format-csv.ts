import { CONTROL_CLASS, replaceControls } from '../log/control-characters.js';
import { SCALAR_FIELDS } from './fields.js';
import type { IndexRecord } from '../model/index-record.js';

/** The header row of the csv format: the scalar field names in the SPEC's order. */
export const csvHeader = SCALAR_FIELDS.join(',') + '\n';

/** fast-csv quotes a field holding its delimiter, a line break or, by a quirk of its pattern, `|`. */
const NEEDS_QUOTES = /[",\n\r|]/;
/** A field that needs quotes, or holds a control character to drop or replace: one test for most fields. */
const NEEDS_WORK = new RegExp(`[",|${CONTROL_CLASS}]`);

/**
 * One field quoted exactly as fast-csv's `FieldFormatter` does with its defaults (RFC 4180: quotes
 * doubled, fields with `,` `"` or line breaks quoted; NULs dropped), but synchronously and without
 * a stream per row; every other control character but tab and the line breaks a quoted field keeps
 * becomes `?` ({@link replaceControls}), so that the file shows nothing raw at a terminal. `null` is
 * an empty field.
 */
const cell = (value: string | number | null): string => {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (!NEEDS_WORK.test(value)) return value;
  const text = replaceControls(value.includes('\0') ? value.replaceAll('\0', '') : value, '\t\n\r');
  if (!NEEDS_QUOTES.test(text)) return text;
  return '"' + (text.includes('"') ? text.replaceAll('"', '""') : text) + '"';
};

/**
 * One record as a csv row (SPEC §6): the scalar fields in the SPEC's order, no links. Write
 * {@link csvHeader} first. Titles keep their commas, quotes and line breaks, quoted; the rows
 * parse back with fast-csv's parser.
 *
 * @example
 * formatCsv(rec) //=> 'e3b0…,http://h/,http://h,"Home, sweet ""home""",utf-8,html,,…\n'
 * @see readIndex
 */
export function formatCsv(rec: IndexRecord): string {
  let out = cell(rec[SCALAR_FIELDS[0]]);
  for (let i = 1; i < SCALAR_FIELDS.length; i++) out += ',' + cell(rec[SCALAR_FIELDS[i] as (typeof SCALAR_FIELDS)[number]]);
  return out + '\n';
}

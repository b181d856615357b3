import { oneSafeLine } from './fields.js';
import type { IndexRecord } from '../model/index-record.js';

const dash = (value: string | null): string => (value === null || value === '' ? '-' : oneSafeLine(value));

/**
 * One record in the assignment's `seed` format (SPEC §6): the document line with its eight
 * tab-separated fields (`-` for a missing value), then a `<TAB>@URL ANCHOR` line per link. Tabs and
 * line breaks inside fields become spaces, so every record splits back into the same fields.
 *
 * @example
 * formatSeed(rec)
 * //=> 'e3b0…\thttp://h/\thttp://h\tHome\tutf-8\thtml\t-\tTue, 15 Nov 1994 08:12:31 GMT\n\t@http://h/a About us\n'
 * @see readIndex
 */
export function formatSeed(rec: IndexRecord): string {
  let out = `${rec.md5}\t${dash(rec.url)}\t${dash(rec.originalUrl)}\t${dash(rec.title)}\t${dash(rec.encoding)}\t${dash(rec.type)}\t${dash(rec.lastModified)}\t${dash(rec.serverDate)}\n`;
  for (const link of rec.links) out += `\t@${oneSafeLine(link.url)} ${oneSafeLine(link.text)}\n`;
  return out;
}

import { oneSafeLine } from './fields.js';
import type { IndexRecord } from '../model/index-record.js';

/**
 * One record as link-graph edges (SPEC §6): a `FROM<TAB>TO` line per link, nothing for a page
 * without links.
 *
 * @example
 * formatEdges(rec) //=> 'http://h/\thttp://h/a\nhttp://h/\thttp://h/b\n'
 * @see readIndex
 */
export function formatEdges(rec: IndexRecord): string {
  const from = oneSafeLine(rec.url) + '\t';
  let out = '';
  for (const link of rec.links) out += from + oneSafeLine(link.url) + '\n';
  return out;
}

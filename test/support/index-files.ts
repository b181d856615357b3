import { createHash } from 'node:crypto';

/**
 * Independent readers of what the crawler writes (SPEC §6), strict on purpose: a line that is not
 * part of a whole record throws, so a test that parses a file also checks that it holds only whole
 * records. They do not reuse the crawler's own reader, so that a bug shared by writer and reader
 * cannot hide.
 */

/** One record of the seed format: the eight document fields (`-` kept as written) and the link lines. */
export interface SeedRecord {
  readonly md5: string;
  readonly url: string;
  readonly originalUrl: string;
  readonly title: string;
  readonly encoding: string;
  readonly type: string;
  readonly lastModified: string;
  readonly serverDate: string;
  readonly links: { readonly url: string; readonly text: string }[];
}

/** 32 lowercase hex digits of the MD5 of the text's UTF-8 bytes. */
export function md5(text: string | Buffer): string {
  return createHash('md5').update(text).digest('hex');
}

/**
 * Parses a seed-format index: `MD5\tURL\tORIGINAL\tTITLE\tENCODING\tTYPE\tLAST-MODIFIED\tDATE` lines,
 * each followed by `\t@URL TEXT` lines. Throws on any other line, and when the text does not end
 * with a newline (a half-written record).
 *
 * @example
 * parseSeedIndex('0123…\thttp://h/\thttp://h/\tHome\tutf-8\thtml\t-\t-\n\t@http://h/a About\n')[0].links
 * //=> [{ url: 'http://h/a', text: 'About' }]
 */
export function parseSeedIndex(text: string): SeedRecord[] {
  if (text !== '' && !text.endsWith('\n')) throw new Error(`index does not end with a newline: …${JSON.stringify(text.slice(-80))}`);
  const records: SeedRecord[] = [];
  const lines = text.split('\n');
  lines.pop();
  lines.forEach((line, i) => {
    if (line.startsWith('\t@')) {
      const last = records[records.length - 1];
      if (!last) throw new Error(`line ${i + 1}: a link line before any record`);
      const space = line.indexOf(' ');
      if (space < 0) throw new Error(`line ${i + 1}: a link line without the space after its URL: ${JSON.stringify(line)}`);
      last.links.push({ url: line.slice(2, space), text: line.slice(space + 1) });
      return;
    }
    const f = line.split('\t');
    if (f.length !== 8 || !/^[0-9a-f]{32}$/.test(f[0]!)) throw new Error(`line ${i + 1}: not a record line: ${JSON.stringify(line)}`);
    const [md5sum, url, originalUrl, title, encoding, type, lastModified, serverDate] = f as [string, string, string, string, string, string, string, string];
    records.push({ md5: md5sum, url, originalUrl, title, encoding, type, lastModified, serverDate, links: [] });
  });
  return records;
}

/** Parses a jsonl index: one JSON object per line, every line complete. */
export function parseJsonl(text: string): Record<string, unknown>[] {
  if (text !== '' && !text.endsWith('\n')) throw new Error('jsonl index does not end with a newline');
  return text
    .split('\n')
    .slice(0, -1)
    .map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`line ${i + 1}: not JSON: ${JSON.stringify(line.slice(0, 200))}`);
      }
    });
}

/**
 * Parses RFC 4180 csv (quoted fields may hold commas, doubled quotes and line breaks) into rows of
 * strings.
 *
 * @example
 * parseCsv('a,"b, ""c"""\n') //=> [['a', 'b, "c"']]
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n') row.push(field), rows.push(row), (row = []), (field = '');
    else field += c;
  }
  if (quoted || field !== '' || row.length > 0) throw new Error('csv does not end with a whole row');
  return rows;
}

/** Parses an edges index: `FROM\tTO` lines. */
export function parseEdges(text: string): [string, string][] {
  if (text !== '' && !text.endsWith('\n')) throw new Error('edges index does not end with a newline');
  return text
    .split('\n')
    .slice(0, -1)
    .map((line, i) => {
      const f = line.split('\t');
      if (f.length !== 2) throw new Error(`line ${i + 1}: not FROM<TAB>TO: ${JSON.stringify(line)}`);
      return [f[0]!, f[1]!];
    });
}

/** An RFC 9110 IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`. */
export const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;

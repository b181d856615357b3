import { createReadStream } from 'node:fs';
import { Readable, pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'fast-csv';
import type { IndexFormat } from '../model/config.js';
import { NULLABLE_FIELDS, NUMBER_FIELDS, SCALAR_FIELDS } from './fields.js';
import { csvHeader } from './format-csv.js';
import { LineReader } from './line-reader.js';
import type { IndexLink, IndexRecord } from '../model/index-record.js';

/**
 * A record read back from an index file: `url` and `links` always, the other fields as far as the
 * format carries them (seed: the eight document fields; csv: no links; edges: only `url` and the
 * links' targets, with empty anchor text).
 */
export type IndexEntry = Partial<Omit<IndexRecord, 'url' | 'links'>> & Pick<IndexRecord, 'url' | 'links'>;

type Draft = { -readonly [K in keyof IndexEntry]: IndexEntry[K] } & { links: IndexLink[] };

/** An index file that none of the four formats can read; `line` is 1-based. */
export class IndexFormatError extends Error {
  readonly code = 'INDEX_FORMAT';
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'IndexFormatError';
  }
}

const CSV_START = csvHeader.slice(0, csvHeader.indexOf(',', 4) + 1); // 'md5,url,'

/**
 * The format of an index file from its first line: jsonl starts with `{`, csv with its header,
 * seed has eight tab-separated fields and edges two.
 *
 * @example
 * detectFormat('http://a/\thttp://b/') //=> 'edges'
 */
export function detectFormat(firstLine: string): IndexFormat | undefined {
  if (firstLine.startsWith('{')) return 'jsonl';
  if (firstLine.startsWith(CSV_START)) return 'csv';
  const fields = firstLine.split('\t').length;
  return fields === 8 ? 'seed' : fields === 2 ? 'edges' : undefined;
}

/**
 * Reads an index file of any of the four formats back, one record at a time: streaming, so a
 * file of millions of edges takes the memory of one page's links. The format is detected from the
 * first line; edges are grouped into one entry per run of lines with the same FROM. A last line
 * cut short by a crash (no newline, and unreadable) is skipped; any other bad line is an
 * {@link IndexFormatError}.
 *
 * @example
 * for await (const page of readIndex('testbedcsdics/index.txt')) console.log(page.url, page.links.length);
 * //=> http://www.csd.uoc.gr/ 42
 * @see formatSeed, formatJsonl, formatCsv, formatEdges
 */
export async function* readIndex(source: string | Readable): AsyncGenerator<IndexEntry, void, undefined> {
  const stream = typeof source === 'string' ? createReadStream(source) : source;
  try {
    const { head, chunks } = await peekLine(stream);
    if (head === undefined) return;
    const format = detectFormat(head.charCodeAt(0) === 0xfeff ? head.slice(1) : head);
    if (format === undefined) throw new IndexFormatError(1, 'not an index in the seed, jsonl, csv or edges format');
    if (format === 'csv') return yield* readCsv(chunks);
    const lines = new LineReader(chunks);
    yield* format === 'jsonl' ? readJsonl(lines) : format === 'seed' ? readSeed(lines) : readEdges(lines);
  } finally {
    if (stream !== source) stream.destroy(); // the file we opened, also after an error or an early break
  }
}

/** The first line, and all the chunks again (those read to find it, then the rest). */
async function peekLine(source: AsyncIterable<Buffer | string>): Promise<{ head: string | undefined; chunks: AsyncIterable<Buffer | string> }> {
  const it = source[Symbol.asyncIterator]();
  const read: (Buffer | string)[] = [];
  const decoder = new StringDecoder('utf8');
  let text = '';
  for (let next = await it.next(); !next.done; next = await it.next()) {
    read.push(next.value);
    text += typeof next.value === 'string' ? next.value : decoder.write(next.value);
    if (text.includes('\n')) break;
  }
  const nl = text.indexOf('\n');
  const head = nl === -1 ? text + decoder.end() : text.slice(0, text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
  async function* replay(): AsyncGenerator<Buffer | string> {
    try {
      yield* read;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    } finally {
      await it.return?.();
    }
  }
  return { head: head === '' && read.length === 0 ? undefined : head, chunks: replay() };
}

const nullable = (value: string): string | null => (value === '-' ? null : value);

async function* readSeed(lines: LineReader): AsyncGenerator<IndexEntry> {
  let page: Draft | undefined;
  for await (const line of lines) {
    if (line.startsWith('\t@') && page !== undefined) {
      const space = line.indexOf(' ', 2);
      page.links.push(space === -1 ? { url: line.slice(2), text: '' } : { url: line.slice(2, space), text: line.slice(space + 1) });
      continue;
    }
    const f = line.split('\t');
    if (f.length !== 8) {
      if (line === '' || lines.unterminated) continue;
      throw new IndexFormatError(lines.lineNumber, 'expected a document line of 8 tab-separated fields or a <TAB>@link line');
    }
    if (page !== undefined) yield page;
    const [md5, url, originalUrl, title, encoding, type, lastModified, serverDate] = f as [string, string, string, string, string, string, string, string];
    page = { md5, url, originalUrl, title: nullable(title), encoding: nullable(encoding), type, lastModified: nullable(lastModified), serverDate: nullable(serverDate), links: [] };
  }
  if (page !== undefined) yield page;
}

async function* readJsonl(lines: LineReader): AsyncGenerator<IndexEntry> {
  for await (const line of lines) {
    if (line === '') continue;
    let entry: Draft;
    try {
      entry = JSON.parse(line) as Draft;
      if (typeof entry !== 'object' || entry === null || typeof entry.url !== 'string') throw new Error('no url');
    } catch (err) {
      if (lines.unterminated) continue;
      throw new IndexFormatError(lines.lineNumber, `not a JSON record: ${(err as Error).message}`);
    }
    if (!Array.isArray(entry.links)) entry.links = [];
    yield entry;
  }
}

async function* readEdges(lines: LineReader): AsyncGenerator<IndexEntry> {
  let from: string | undefined;
  let links: IndexLink[] = [];
  for await (const line of lines) {
    const tab = line.indexOf('\t');
    if (tab === -1 || line.indexOf('\t', tab + 1) !== -1) {
      if (line === '' || lines.unterminated) continue;
      throw new IndexFormatError(lines.lineNumber, 'expected FROM<TAB>TO');
    }
    const source = line.slice(0, tab);
    if (source !== from) {
      if (from !== undefined) yield { url: from, links };
      from = source;
      links = [];
    }
    links.push({ url: line.slice(tab + 1), text: '' });
  }
  if (from !== undefined) yield { url: from, links };
}

async function* readCsv(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<IndexEntry> {
  const rows = parse<Record<string, string>, Record<string, string>>({ headers: true });
  pipeline(Readable.from(chunks), rows, () => {}); // an error reaches the loop below through `rows`
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    const entry: Record<string, unknown> = { links: [] };
    for (const field of SCALAR_FIELDS) {
      const value = row[field];
      if (value === undefined) continue;
      entry[field] = NUMBER_FIELDS.has(field) ? Number(value) : value === '' && NULLABLE_FIELDS.has(field) ? null : value;
    }
    yield entry as unknown as IndexEntry;
  }
}

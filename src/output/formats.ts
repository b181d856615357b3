import type { IndexFormat } from '../model/config.js';
import { csvHeader, formatCsv } from './format-csv.js';
import { formatEdges } from './format-edges.js';
import { formatJsonl } from './format-jsonl.js';
import { formatSeed } from './format-seed.js';
import type { IndexRecord } from '../model/index-record.js';

/** Writes one record, whole, trailing newline included (may be `''`: edges of a page without links). */
export type RecordFormatter = (rec: IndexRecord) => string;

/** The formatter of each index format. */
export const FORMATTERS: Readonly<Record<IndexFormat, RecordFormatter>> = {
  seed: formatSeed,
  jsonl: formatJsonl,
  csv: formatCsv,
  edges: formatEdges,
};

/** What a new index file of each format starts with. */
export const HEADERS: Readonly<Record<IndexFormat, string>> = { seed: '', jsonl: '', csv: csvHeader, edges: '' };

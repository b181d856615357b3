import { open } from 'node:fs/promises';
import { detectFormat } from '../output/read-index.js';
import { formatRanking, type RankingFormat } from '../pagerank/format-ranking.js';
import type { LinkGraph } from '../pagerank/link-graph.js';
import { pagerank } from '../pagerank/pagerank.js';
import { rankPages } from '../pagerank/rank-pages.js';
import { readLinkGraph } from '../pagerank/read-link-graph.js';

/** Options of `tarantula pagerank INDEX`. */
export interface RunPagerankOptions {
  /** top (number). Pages printed, best first; 0 prints all. */
  readonly top: number;
  /** format (RankingFormat). `table` for people, `tsv` or `jsonl` for programs. */
  readonly format: RankingFormat;
  /** damping (number). The PageRank damping factor, in [0, 1); 0.85 is the usual value. */
  readonly damping: number;
}

const BROKEN_PIPE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_PREMATURE_CLOSE']);
/** Lines are joined into writes of about this many characters. */
const WRITE_CHARS = 64 * 1024;

/**
 * `tarantula pagerank INDEX`: reads the link graph of an index file (any format), ranks its pages
 * by PageRank and prints the top ones to `out` (data only). Returns the exit status: 0 done (also
 * when `out` is closed early, as by `| head -3`); 1 the index cannot be read (missing, not an index,
 * a bad line) or `out` fails; 2 an option out of range. Messages go to `err`. A csv index carries
 * no links: the ranking is still printed (every score 1/N) and `err` says so.
 *
 * @example
 * process.exitCode = await runPagerank('repo/index.txt', { top: 10, format: 'table', damping: 0.85 }, process.stdout);
 * //=> rank  url                       out-degree  in-degree  pagerank
 * //=>    1  http://www.csd.uoc.gr/            42        311  0.0553333
 */
export async function runPagerank(
  indexPath: string,
  opts: RunPagerankOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const problem = checkOptions(opts);
  if (problem !== undefined) {
    err.write(`tarantula: pagerank: ${problem}\n`);
    return 2;
  }
  let graph: LinkGraph;
  let csv: boolean;
  try {
    csv = await isCsvIndex(indexPath);
    graph = await readLinkGraph(indexPath);
  } catch (e) {
    err.write(`tarantula: cannot read ${indexPath}: ${(e as Error).message}\n`);
    return 1;
  }
  if (csv) {
    err.write(`tarantula: ${indexPath} is a csv index, which carries no links: every page scores the same (1/N). ` +
      'Rank an index written in the seed, jsonl or edges format.\n');
  }
  const result = pagerank(graph, { damping: opts.damping });
  if (!result.converged) {
    err.write(`tarantula: PageRank did not converge in ${result.iterations} iterations (last change ${result.delta}); the scores are approximate\n`);
  }
  const failure = await writeLines(out, formatRanking(rankPages(graph, result.scores, opts.top), opts.format));
  if (failure === undefined || BROKEN_PIPE.has(failure.code ?? '')) return 0;
  err.write(`tarantula: cannot write the ranking: ${failure.message}\n`);
  return 1;
}

function checkOptions(opts: RunPagerankOptions): string | undefined {
  if (!Number.isInteger(opts.top) || opts.top < 0) return `--top must be a whole number, 0 or more (got ${opts.top})`;
  if (!(opts.damping >= 0 && opts.damping < 1)) return `--damping must be at least 0 and below 1 (got ${opts.damping})`;
  if (!['table', 'tsv', 'jsonl'].includes(opts.format)) return `--format must be table, tsv or jsonl (got ${opts.format})`;
  return undefined;
}

/** Whether the file's first line is the csv header; the other formats are left to readIndex. */
async function isCsvIndex(path: string): Promise<boolean> {
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(64), 0, 64, 0);
    const text = buffer.toString('utf8', 0, bytesRead);
    return detectFormat(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) === 'csv';
  } finally {
    await file.close();
  }
}

/** Writes the lines in batches, one write in flight at a time; resolves with the first write error. */
async function writeLines(out: NodeJS.WritableStream, lines: Iterable<string>): Promise<NodeJS.ErrnoException | undefined> {
  let failure: NodeJS.ErrnoException | undefined;
  // stays attached: an EPIPE reported after the last write must not become an uncaught exception
  out.on('error', (e: NodeJS.ErrnoException) => (failure ??= e));
  const write = (text: string): Promise<void> =>
    new Promise((resolve) => out.write(text, (e?: Error | null) => {
      if (e) failure ??= e;
      resolve();
    }));
  let batch = '';
  for (const line of lines) {
    batch += line;
    if (batch.length < WRITE_CHARS) continue;
    await write(batch);
    batch = '';
    if (failure !== undefined) return failure;
  }
  if (batch !== '') await write(batch);
  return failure;
}

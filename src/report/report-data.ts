import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DURATION_BOUNDS_MS as DURATION_BOUNDS, type CrawlSummary } from '../sinks/crawl-stats.js';
import { pagerank } from '../pagerank/pagerank.js';
import { rankPages, type RankedPage } from '../pagerank/rank-pages.js';
import { readLinkGraph } from '../pagerank/read-link-graph.js';
import { STATE_DIR } from '../state/crawl-state.js';
import { readJournal } from '../state/read-journal.js';
import { runningHolder } from '../state/repository-lock.js';
import { workerSlots } from '../distributed/merge-worker-parts.js';
import { previousRound, workerDir } from '../distributed/redis-frontier-url.js';
import type { Interval, Row } from './svg-charts.js';

/** Intervals of the pages-over-time chart, at most; fewer for a small crawl, so that each holds a few pages. */
const RATE_POINTS = 60;
const PAGES_PER_POINT = 5;
const PAGERANK_TOP = 20;

/** Everything the report shows, read from a repository. */
export interface ReportData {
  readonly repository: string;
  /** stats.json: the last run's counters. */
  readonly summary: CrawlSummary & {
    readonly pending?: number;
    readonly completed?: boolean;
    /** On a recrawl: the last crawl's pages sorted into new, changed, unchanged and gone. */
    readonly recrawl?: Readonly<Record<string, number>>;
  };
  /** Equal intervals from the first document to the last: [from, to] in seconds since the first, and pages/s in it. */
  readonly rate: readonly Interval[];
  readonly spanSeconds: number;
  readonly depth: readonly Row[];
  readonly durations: readonly Row[];
  readonly pagerank: readonly RankedPage[];
}

/** A folder that holds no crawl (or not enough of one to report on). */
export class NoCrawlError extends Error {
  readonly code = 'NO_CRAWL';
}

/**
 * Reads a crawled repository for the report: the counters of `stats.json`; from the journal
 * (`.tarantula/journal.jsonl`, or `previous.jsonl` when a recrawl has not yet begun one) each
 * document's fetch time, depth and duration; from `index.txt` the link graph, ranked by PageRank.
 *
 * @throws {NoCrawlError} when the folder has no stats.json or no journal.
 * @example
 * const data = await readReportData('demo-output');
 * data.summary.documents //=> 43; data.pagerank[0].url //=> 'http://www.tarantula.test:47613/'
 */
export async function readReportData(repository: string): Promise<ReportData> {
  const summary = await readSummary(repository);
  const journals = await findJournals(repository);
  const times: number[] = [];
  const depth: number[] = [];
  const durations = new Array<number>(DURATION_BOUNDS.length + 1).fill(0);
  for (const journal of journals)
    for await (const e of readJournal(journal)) {
      if (e[0] !== 'd' || e[2] === null) continue;
      const rec = e[2];
      const at = Date.parse(rec.fetchedAt);
      if (Number.isFinite(at)) times.push(at);
      depth[rec.depth] = (depth[rec.depth] ?? 0) + 1;
      const range = DURATION_BOUNDS.findIndex((bound) => rec.durationMs < bound);
      durations[range < 0 ? DURATION_BOUNDS.length : range]! += 1;
    }
  const { rate, spanSeconds } = rateOverTime(times);
  return {
    repository,
    summary,
    rate,
    spanSeconds,
    depth: Array.from(depth, (n, d) => [String(d), n ?? 0] as const),
    durations: durationRows(durations),
    pagerank: await topPages(join(repository, 'index.txt')),
  };
}

async function readSummary(repository: string): Promise<ReportData['summary']> {
  const path = join(repository, 'stats.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code;
    if (missing === 'ENOENT' || missing === 'ENOTDIR') {
      const crawled = await stat(join(repository, STATE_DIR)).then(() => true, () => false);
      const holder = crawled ? await runningHolder(repository) : undefined;
      throw new NoCrawlError(
        holder !== undefined
          ? `${repository} has a crawl running (pid ${holder.pid} on ${holder.host}, started ${holder.started}) that has not written stats.json yet; report it once it has ended`
          : crawled
          ? `${repository} has a crawl journal but no stats.json: the crawl was killed before it ended; run it again (it resumes), then report`
          : `${repository} holds no crawl (no stats.json, no ${STATE_DIR}/journal.jsonl); crawl into it first: tarantula crawl --repository ${repository}`,
      );
    }
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new NoCrawlError(`${path} is not the stats of a crawl: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new NoCrawlError(`${path} is not the stats of a crawl: not a JSON object`);
  return value as ReportData['summary'];
}

/**
 * The journals of the repository's last crawl: its own (`journal.jsonl`, or `previous.jsonl` when a
 * recrawl has not yet begun one), or for a machine's repository of a shared crawl, its workers'
 * (or the round they last completed, folded, when none has begun its own).
 */
async function findJournals(repository: string): Promise<string[]> {
  const isFile = (path: string): Promise<boolean> => stat(path).then((s) => s.isFile(), () => false);
  const workers = (await workerSlots(repository)).map((slot) => join(workerDir(repository, slot), STATE_DIR, 'journal.jsonl'));
  const found: string[] = [];
  for (const path of workers) if (await isFile(path)) found.push(path);
  if (found.length > 0) return found;
  const own = [join(repository, STATE_DIR, 'journal.jsonl'), join(repository, STATE_DIR, 'previous.jsonl'), previousRound(repository)];
  for (const path of own) if (await isFile(path)) return [path];
  throw new NoCrawlError(`${repository} has stats.json but no ${STATE_DIR}/journal.jsonl: it is not a repository tarantula crawled`);
}

/** Documents per second in RATE_POINTS equal intervals from the first document to the last. */
function rateOverTime(times: number[]): { rate: Interval[]; spanSeconds: number } {
  if (times.length === 0) return { rate: [], spanSeconds: 0 };
  let first = Infinity;
  let last = -Infinity;
  for (const t of times) {
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const spanMs = Math.max(last - first, 1);
  const intervals = Math.max(1, Math.min(RATE_POINTS, Math.floor(times.length / PAGES_PER_POINT), spanMs));
  const width = spanMs / intervals;
  const counts = new Array<number>(intervals).fill(0);
  for (const t of times) counts[Math.min(intervals - 1, Math.floor((t - first) / width))]! += 1;
  return { rate: counts.map((n, i) => [(i * width) / 1000, ((i + 1) * width) / 1000, (n * 1000) / width]), spanSeconds: spanMs / 1000 };
}

/**
 * Documents by fetch-duration range (a count per range of DURATION_BOUNDS_MS) as chart rows. Ranges
 * above the slowest fetch are left out: a loopback crawl is not drawn over ten empty columns.
 *
 * @example
 * durationRows([0, 3, 1, 0]) //=> [['<10 ms', 0], ['<25 ms', 3], ['<50 ms', 1]]
 */
export function durationRows(counts: readonly number[]): Row[] {
  return counts.slice(0, counts.findLastIndex((n) => n > 0) + 1).map((n, i) => [durationLabel(i), n] as const);
}

/** A range by its upper bound (`<25 ms`: from the previous bound to 25 ms), the last by its lower one. */
function durationLabel(range: number): string {
  const ms = (n: number): string => (n >= 1000 ? `${n / 1000} s` : `${n} ms`);
  return range === DURATION_BOUNDS.length ? `≥${ms(DURATION_BOUNDS[range - 1]!)}` : `<${ms(DURATION_BOUNDS[range]!)}`;
}

async function topPages(indexPath: string): Promise<RankedPage[]> {
  const exists = await stat(indexPath).then((s) => s.isFile(), () => false);
  if (!exists) return [];
  const graph = await readLinkGraph(indexPath);
  return rankPages(graph, pagerank(graph).scores, PAGERANK_TOP);
}

import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { CrawlerConfig } from '../model/config.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import { IndexWriter } from '../output/index-writer.js';
import { STATE_DIR } from '../state/crawl-state.js';
import { JournalWriter } from '../state/journal-writer.js';
import { readJournal } from '../state/read-journal.js';
import type { JournalEvent } from '../state/journal-events.js';
import type { IndexRecord } from '../model/index-record.js';
import { recordSchedule, type PageVisit } from '../model/page-visit.js';
import { makeDirectory } from '../store/make-directory.js';
import { previousRound, workerDir, workersDir } from './redis-frontier-url.js';

/** The slots of this machine's workers that have a folder, in order. */
export async function workerSlots(repository: string): Promise<number[]> {
  const names = await readdir(workersDir(repository)).catch(() => [] as string[]);
  return names.filter((n) => /^\d+$/.test(n)).map(Number).sort((a, b) => a - b);
}

/**
 * Writes REPOSITORY/index.txt (and the `index-file` copy) from the journals of this machine's
 * workers: every document once, though a page fetched again after its worker died is in two journals.
 * The journals, not the workers' index parts, because a killed worker's part may end in a torn record.
 * No `stdout` (its reader went away): `--index -` is not written.
 *
 * @example
 * await mergeIndexParts(config, process.stdout) //=> documents written
 */
export async function mergeIndexParts(config: CrawlerConfig, stdout: Writable | undefined): Promise<number> {
  const repo = resolve(config.repository);
  const target = join(repo, 'index.txt');
  const writers = [await IndexWriter.open(`${target}.new`, { format: 'seed' })];
  const copy = config.indexFile === '-' ? stdout : config.indexFile;
  if (copy !== undefined) writers.push(await IndexWriter.open(copy, { format: config.indexFormat }));
  const written = fingerprintSet();
  try {
    for (const slot of await workerSlots(repo))
      for await (const e of readJournal(join(workerDir(repo, slot), STATE_DIR, 'journal.jsonl')))
        if (e[0] === 'd' && e[2] !== null && e[4] !== false && written.add(e[1])) for (const w of writers) w.write(e[2]);
  } finally {
    for (const w of writers) await w.close();
  }
  await rename(`${target}.new`, target);
  return written.size;
}

/** The crawl's last visits of pages (a shared crawl's recrawl schedule), in the order asked; undefined where it has none. */
export type LastVisits = (records: readonly IndexRecord[]) => Promise<readonly (PageVisit | undefined)[]>;

/** Records whose last visits are asked for at a time while folding. */
const FOLD_BATCH = 512;

/**
 * Makes this machine's workers ready for round `round` of the crawl: when their journals are of an
 * earlier round (which has completed since: a round begins only then), their documents are folded
 * into the machine's journal of the last completed round ({@link previousRound}; with what it held,
 * the newest record of each URL), and the workers start afresh, recrawling what it holds. Each record
 * takes the schedule of the page's last visit in the crawl (`visits`), whichever machine made it, so
 * that a page is due when the crawl says. The round the journals belong to is kept in `workers/round`.
 *
 * @example
 * await foldCompletedRound('out', 2) //=> true: the workers recrawl what they fetched in round 1
 */
export async function foldCompletedRound(repository: string, round: number, visits?: LastVisits): Promise<boolean> {
  const dir = workersDir(repository);
  const roundFile = join(dir, 'round');
  const had = Number(await readFile(roundFile, 'utf8').catch(() => '1'));
  if (had >= round) return false;
  const journals = (await workerSlots(repository)).map((slot) => join(workerDir(repository, slot), STATE_DIR, 'journal.jsonl'));
  const sources = [previousRound(repository), ...journals];
  // Two passes: the position of each URL's newest record, then the records at those positions.
  const newest = new Map<string, number>();
  let at = 0;
  for (const source of sources) for await (const e of readJournal(source)) if (++at && e[0] === 'd' && e[2] !== null) newest.set(e[1], at);
  const folded = `${previousRound(repository)}.new`;
  await makeDirectory(dir);
  const out = await JournalWriter.open(folded);
  const seeds = new Set<string>();
  let documents: DocumentEvent[] = [];
  const writeDocuments = async (): Promise<void> => {
    const last = visits && documents.length > 0 ? await visits(documents.map((e) => e[2]!)) : [];
    for (const [i, e] of documents.entries()) out.append(withSchedule(e, last[i]));
    documents = [];
  };
  at = 0;
  for (const source of sources)
    for await (const e of readJournal(source)) {
      at++;
      if (e[0] === 'd' && newest.get(e[1]) === at) {
        documents.push(e);
        if (documents.length >= FOLD_BATCH) await writeDocuments();
      } else if (e[0] === 's' && !seeds.has(e[1])) out.append(e), seeds.add(e[1]);
    }
  await writeDocuments();
  out.append(['end', new Date().toISOString()]);
  await out.close();
  await rename(folded, previousRound(repository));
  for (const journal of journals) await rm(journal, { force: true });
  await writeFile(roundFile, `${round}\n`);
  return true;
}

type DocumentEvent = Extract<JournalEvent, readonly ['d', ...unknown[]]>;

/** A document's line with the schedule of the page's last visit, when the crawl knows one. */
function withSchedule(e: DocumentEvent, visit: PageVisit | undefined): DocumentEvent {
  return visit === undefined || e[2] === null ? e : ['d', e[1], { ...e[2], ...recordSchedule(visit) }, e[3], e[4], e[5]];
}

type Stats = { [key: string]: unknown };

/** Sums the workers' stats.json into REPOSITORY/stats.json: counts add up, flags hold if they hold for all. */
export async function sumWorkerStats(repository: string): Promise<Stats> {
  const files = (await workerSlots(repository)).map((slot) => join(workerDir(repository, slot), 'stats.json'));
  return sumStats(files, join(resolve(repository), 'stats.json'));
}

/**
 * Sums stats.json files (those that exist) into `into`, as the workers of one machine are summed:
 * counts add up, `pending` and `seconds` take the largest (side by side), flags hold if they hold for all.
 *
 * @example
 * await sumStats(['a/stats.json', 'b/stats.json'], 'all/stats.json') //=> { documents: 20000, ... }
 */
export async function sumStats(files: readonly string[], into: string): Promise<Stats> {
  let total: Stats = {};
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) total = add(total, JSON.parse(text) as Stats);
  }
  await writeFile(into, JSON.stringify(total, null, 2) + '\n');
  return total;
}

/** Every worker (and machine) counts the shared crawl's pending requests, not its own; and they run side by side. */
const LARGEST = new Set(['pending', 'seconds']);

function add(a: Stats, b: Stats): Stats {
  const out: Stats = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const have = out[key];
    if (LARGEST.has(key) && typeof value === 'number') out[key] = Math.max(typeof have === 'number' ? have : 0, value);
    else if (typeof value === 'number') out[key] = (typeof have === 'number' ? have : 0) + value;
    else if (typeof value === 'boolean') out[key] = have === undefined ? value : have === true && value;
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) out[key] = add((have ?? {}) as Stats, value as Stats);
    else if (have === undefined) out[key] = value;
  }
  return out;
}

import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { CrawlerConfig } from '../model/config.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import { IndexWriter } from '../output/index-writer.js';
import { STATE_DIR } from '../state/crawl-state.js';
import { JournalWriter } from '../state/journal-writer.js';
import { readJournal } from '../state/read-journal.js';
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

/**
 * Makes this machine's workers ready for round `round` of the crawl: when their journals are of an
 * earlier round (which has completed since: a round begins only then), their documents are folded
 * into the machine's journal of the last completed round ({@link previousRound}; with what it held,
 * the newest record of each URL), and the workers start afresh, recrawling what it holds. The
 * round the journals belong to is kept in `workers/round`.
 *
 * @example
 * await foldCompletedRound('out', 2) //=> true: the workers recrawl what they fetched in round 1
 */
export async function foldCompletedRound(repository: string, round: number): Promise<boolean> {
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
  at = 0;
  for (const source of sources)
    for await (const e of readJournal(source)) {
      at++;
      if (e[0] === 'd' && newest.get(e[1]) === at) out.append(e);
      else if (e[0] === 's' && !seeds.has(e[1])) out.append(e), seeds.add(e[1]);
    }
  out.append(['end', new Date().toISOString()]);
  await out.close();
  await rename(folded, previousRound(repository));
  for (const journal of journals) await rm(journal, { force: true });
  await writeFile(roundFile, `${round}\n`);
  return true;
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

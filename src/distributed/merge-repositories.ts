import { mkdir, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, join, posix, resolve, sep } from 'node:path';
import { EXIT, exitWith } from '../app/exit-status.js';
import { sortCdxj, type CdxjSource } from '../archive/sort-cdxj.js';
import type { IndexRecord } from '../model/index-record.js';
import { IndexWriter } from '../output/index-writer.js';
import { STATE_DIR } from '../state/crawl-state.js';
import { JournalWriter } from '../state/journal-writer.js';
import { readJournal } from '../state/read-journal.js';
import { linkOrCopy } from '../store/link-or-copy.js';
import { urlMd5 } from '../url/url-md5.js';
import { MirrorStore } from '../store/mirror-store.js';
import { noRoom } from '../store/no-room.js';
import { sumStats } from './merge-worker-parts.js';
import { MAX_PARTS, NewestRecords } from './newest-records.js';
import { openPart, partWarcs, type RepositoryPart } from './repository-part.js';

/** Where the parts' WARC files go in INTO: `archive/PART/…`, PART the part's folder name. */
export const ARCHIVE_DIR = 'archive';
/** The CDXJ of every WARC file of the parts, sorted. */
export const MERGED_CDXJ = 'index.cdxj';

/** Mirror files being linked at once. */
const ADOPTING = 32;

/** What a merge made. */
export interface MergeSummary {
  readonly parts: number;
  /** Records in INTO/index.txt: one per URL. */
  readonly documents: number;
  /** Records left out because a part held a newer record of the same URL. */
  readonly older: number;
  /** Mirror files taken into INTO: hard-linked, copied, or missing from their part. */
  readonly mirror: Readonly<MirrorCounts>;
  readonly warcFiles: number;
  readonly cdxjLines: number;
}

interface MirrorCounts {
  linked: number;
  copied: number;
  missing: number;
}

/** One indexed record of a part's journal, with what the journal says beside it. */
interface PartRecord {
  readonly record: IndexRecord;
  readonly contentType: string | null;
  readonly md5: string;
  readonly time: number;
}

/**
 * `tarantula merge INTO REPOSITORY…` (SPEC §8): makes one repository of the repositories that the
 * machines of a shared crawl wrote. INTO gets `index.txt` with every URL once (of two records of a URL,
 * the one fetched last; the first part's on a tie; a page that a machine of a shared crawl revalidated
 * where it had no copy, the record of the part that holds it, with the new schedule), the mirror files of those records at the same
 * `localPath` (hard links where the file system allows, else copies), a journal of those records (what
 * `tarantula report` reads; marked complete), `stats.json` summing the parts', and the parts' WARC files
 * under `archive/PART/` with one sorted `index.cdxj` whose lines name them relative to INTO.
 *
 * Memory: the records are streamed from the parts' journals twice; between the passes a table of
 * 35–69 bytes per URL says which part holds each URL's newest record ({@link NewestRecords}), and the
 * CDXJ is sorted externally ({@link sortCdxj}).
 *
 * Refusals end the command before anything is written: exit 2 when INTO is one of the parts, inside one,
 * or not empty, or a part is named twice or is no repository; exit 1 when a part is being crawled or its
 * crawl was killed. `note` is told what a user should know (a part not completed, files missing).
 *
 * @example
 * await mergeRepositories('all', ['machine-a', 'machine-b'], console.error)
 * //=> { parts: 2, documents: 20000, older: 0, mirror: { linked: 20000, copied: 0, missing: 0 }, warcFiles: 2, cdxjLines: 20000 }
 */
export async function mergeRepositories(into: string, partPaths: readonly string[], note: (line: string) => void): Promise<MergeSummary> {
  const target = resolve(into);
  if (partPaths.length > MAX_PARTS) throw exitWith(EXIT.badConfig, `a merge takes at most ${MAX_PARTS} repositories`);
  const parts: RepositoryPart[] = [];
  for (const path of partPaths) parts.push(await openPart(await realpath(resolve(path)).catch(() => resolve(path))));
  await checkTarget(target, parts);
  for (const part of parts) if (!part.completed) note(`${part.dir}: its crawl was stopped before it completed; the documents it fetched are merged`);

  const newest = new NewestRecords();
  const mirrorFolders = parts.map(() => new Set<string>());
  // Pages a machine revalidated (304) whose record and copy another machine holds, with their new schedule.
  const revalidated = new Map<string, Schedule>();
  let offered = 0;
  for (const pass of [partRecords, previousRecords])
    for (const [i, part] of parts.entries())
      for await (const r of pass(part, revalidated)) {
        newest.offer(r.md5, r.time, i);
        offered++;
        mirrorFolders[i]!.add(r.record.localPath.split('/')[0]!);
      }

  await mkdir(join(target, STATE_DIR), { recursive: true });
  const store = new MirrorStore(target);
  const mirror: MirrorCounts = { linked: 0, copied: 0, missing: 0 };
  const index = await IndexWriter.open(join(target, 'index.txt'), { format: 'seed' });
  const journal = await JournalWriter.open(join(target, STATE_DIR, 'journal.jsonl'));
  let documents = 0;
  // Mirror files are taken ADOPTING at a time (the file system's round trips overlap the reading), written in journal order.
  const adopting: { readonly merged: Promise<IndexRecord>; readonly contentType: string | null }[] = [];
  const writeFirst = async (): Promise<void> => {
    const { merged, contentType } = adopting.shift()!;
    const rec = await merged;
    journal.append(['d', rec.url, rec, contentType, true]);
    documents++;
    // Bounded: wait for the files when the index has a backlog, and flush the journal as often.
    if (!index.write(rec)) await Promise.all([index.drain(), journal.flush()]);
  };
  try {
    journal.append(['start', new Date().toISOString()]);
    for (const pass of [partRecords, previousRecords])
      for (const [i, part] of parts.entries())
        for await (const { record, contentType, md5, time } of pass(part, revalidated)) {
          if (!newest.take(md5, time, i)) continue;
          const merged = adopt(store, record, part.dir, mirror, note).then((localPath) => (localPath === record.localPath ? record : { ...record, localPath }));
          merged.catch(() => undefined); // its failure is met where it is awaited, in turn
          adopting.push({ merged, contentType });
          if (adopting.length >= ADOPTING) await writeFirst();
        }
    while (adopting.length > 0) await writeFirst();
    journal.append(['end', new Date().toISOString()]);
  } finally {
    await index.close();
    await journal.close();
  }
  if (mirror.missing > 0) note(`${mirror.missing} mirror file${mirror.missing === 1 ? ' was' : 's were'} missing from the parts: their records keep their localPath`);

  const { warcFiles, cdxjLines } = await mergeArchives(target, parts, mirrorFolders, note);
  // Last: a merge stopped before this point leaves INTO without stats.json, which report names.
  await sumStats(parts.map((p) => p.stats), join(target, 'stats.json'));
  return { parts: parts.length, documents, older: offered - documents, mirror, warcFiles, cdxjLines };
}

/** INTO must be new (missing or empty), and neither a part, nor inside one, nor around one; no part twice. */
async function checkTarget(target: string, parts: readonly RepositoryPart[]): Promise<void> {
  const real = await realpath(target).catch(() => realpath(dirname(target)).then((dir) => join(dir, basename(target)), () => target));
  const inside = (dir: string, path: string): boolean => path === dir || path.startsWith(dir + sep);
  for (const [i, part] of parts.entries()) {
    if (parts.findIndex((p) => p.dir === part.dir) !== i) throw exitWith(EXIT.badConfig, `${part.dir} is named twice`);
    if (inside(part.dir, real)) throw exitWith(EXIT.badConfig, `${target} is ${real === part.dir ? 'one of the repositories to merge' : `inside ${part.dir}, one of the repositories to merge`}: merge into a new folder`);
    if (inside(real, part.dir)) throw exitWith(EXIT.badConfig, `${part.dir} is inside ${target}: merge into a new folder`);
  }
  const entries = await readdir(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw exitWith(EXIT.badConfig, `${target} cannot be merged into: ${err.code === 'ENOTDIR' ? 'not a folder' : err.message}`);
  });
  if (entries.length > 0) throw exitWith(EXIT.badConfig, `${target} is not empty: merge into a new folder (a merge that was stopped leaves its folder so: remove it and merge again)`);
}

/** The schedule a revalidation gave a page. */
type Schedule = Pick<IndexRecord, 'nextFetch' | 'fetchIntervalHours'>;

/** The indexed records of a part's journals, in journal order; the pages it revalidated whose records are elsewhere go to `revalidated`. */
async function* partRecords(part: RepositoryPart, revalidated: Map<string, Schedule>): AsyncGenerator<PartRecord> {
  for (const path of part.journals)
    for await (const e of readJournal(path)) {
      if (e[0] === 'x' && e[2] === 'revalidated') revalidated.set(urlMd5(e[1]), e[3] ?? {});
      if (e[0] !== 'd' || e[2] === null || e[4] === false) continue;
      yield partRecord(e[2], e[3]);
    }
}

/**
 * The records of a shared crawl's part of the round before that a machine revalidated in this one
 * (a 304 where no copy was), with the schedule the revalidation gave them: of its pages fetched in
 * full or gone since, nothing.
 */
async function* previousRecords(part: RepositoryPart, revalidated: ReadonlyMap<string, Schedule>): AsyncGenerator<PartRecord> {
  if (part.previous === undefined || revalidated.size === 0) return;
  for await (const e of readJournal(part.previous)) {
    if (e[0] !== 'd' || e[2] === null || e[4] === false) continue;
    const r = partRecord(e[2], e[3]);
    const schedule = revalidated.get(r.md5);
    if (schedule !== undefined) yield { ...r, record: { ...r.record, ...schedule } };
  }
}

function partRecord(record: IndexRecord, contentType: string | null): PartRecord {
  const md5 = /^[0-9a-f]{32}$/.test(record.md5) ? record.md5 : urlMd5(record.url);
  return { record, contentType, md5, time: Date.parse(record.fetchedAt) };
}

/** Takes a record's mirror file into INTO; returns its localPath there (unchanged when the file is missing). */
async function adopt(store: MirrorStore, record: IndexRecord, from: string, mirror: MirrorCounts, note: (line: string) => void): Promise<string> {
  try {
    const { localPath, how } = await store.adopt(new URL(record.url), record.localPath, join(from, record.localPath));
    mirror[how]++;
    return localPath;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (noRoom(code)) throw exitWith(EXIT.cannotRun, `cannot write the merged mirror: ${(err as Error).message}`);
    if (code !== 'ENOENT') note(`${record.url}: its mirror file is not taken: ${(err as Error).message}`);
    mirror.missing++;
    return record.localPath;
  }
}

/** Links (else copies) every part's WARC files and their CDXJs into INTO/archive/PART/ and writes the sorted CDXJ of them all. */
async function mergeArchives(target: string, parts: readonly RepositoryPart[], mirrorFolders: readonly ReadonlySet<string>[], note: (line: string) => void): Promise<{ warcFiles: number; cdxjLines: number }> {
  const sources: CdxjSource[] = [];
  const labels = new Set<string>();
  for (const [i, part] of parts.entries()) {
    let label = basename(part.dir);
    for (let n = 2; labels.has(label); n++) label = `${basename(part.dir)}-${n}`;
    labels.add(label);
    for (const warc of await partWarcs(part.dir, mirrorFolders[i]!)) {
      const path = posix.join(ARCHIVE_DIR, label, warc.path);
      await mkdir(dirname(join(target, path)), { recursive: true });
      await linkOrCopy(join(part.dir, warc.path), join(target, path));
      // Its own CDXJ beside it, as in the part: INTO can itself be a part of a later merge.
      await linkOrCopy(warc.cdxj, join(target, path.replace(/\.warc\.gz$/, '.cdxj')));
      const folder = posix.dirname(path);
      sources.push({ path: warc.cdxj, filename: (name) => `${folder}/${name}` });
    }
  }
  if (sources.length === 0) return { warcFiles: 0, cdxjLines: 0 };
  const { lines, skipped } = await sortCdxj(sources, join(target, MERGED_CDXJ), { tempDir: join(target, STATE_DIR, 'cdxj-runs') });
  if (skipped > 0) note(`${skipped} CDXJ line${skipped === 1 ? ' was' : 's were'} not read (torn, or not CDXJ) and left out of ${MERGED_CDXJ}`);
  return { warcFiles: sources.length, cdxjLines: lines };
}

import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { EXIT, exitWith } from '../app/exit-status.js';
import { STATE_DIR } from '../state/crawl-state.js';
import { runningHolder } from '../state/repository-lock.js';
import { workerSlots } from './merge-worker-parts.js';
import { previousRound, workerDir } from './redis-frontier-url.js';

/** A repository that a merge takes: the journals its index was made from, and its stats. */
export interface RepositoryPart {
  /** Absolute. */
  readonly dir: string;
  /** Its workers' journals (a shared crawl), else its own (or the last completed crawl's). */
  readonly journals: readonly string[];
  /**
   * A shared crawl's part: the journal of the last round its machine completed before (what its
   * workers revalidated), where the records of pages another machine revalidated this round are.
   */
  readonly previous?: string;
  readonly stats: string;
  /** What stats.json says: false when its crawl was stopped before it completed. */
  readonly completed: boolean;
}

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

/**
 * Checks that `dir` (absolute) is a tarantula repository whose crawl has ended, and finds its
 * journals and stats. Refusals end the command: exit 2 for a folder that is no repository, 1 for one
 * being crawled or whose crawl was killed.
 *
 * @example
 * await openPart('/data/machine-a') //=> { dir: '/data/machine-a', journals: ['/data/machine-a/.tarantula/workers/0/.tarantula/journal.jsonl'], ... }
 */
export async function openPart(dir: string): Promise<RepositoryPart> {
  const kind = await stat(dir).then((s) => (s.isDirectory() ? 'folder' : 'file'), () => 'none');
  if (kind !== 'folder') throw exitWith(EXIT.badConfig, `${dir} is not a tarantula repository: ${kind === 'none' ? 'no such folder' : 'not a folder'}`);
  // A part being crawled is not merged; a lock left by a crawl that was killed is no holder.
  const holder = await runningHolder(dir);
  if (holder !== undefined) throw exitWith(EXIT.cannotRun, `${dir} is being crawled (pid ${holder.pid} on ${holder.host}, started ${holder.started}): merge it once its crawl has ended`);
  const workers = (await workerSlots(dir)).map((slot) => join(workerDir(dir, slot), STATE_DIR, 'journal.jsonl'));
  const own = [join(dir, STATE_DIR, 'journal.jsonl'), join(dir, STATE_DIR, 'previous.jsonl')];
  const existing = async (paths: string[]): Promise<string[]> => (await Promise.all(paths.map(exists))).flatMap((yes, i) => (yes ? [paths[i]!] : []));
  // journal.jsonl, or previous.jsonl when a recrawl has not begun one (what report reads too).
  const journals = workers.length > 0 ? await existing(workers) : (await existing(own)).slice(0, 1);
  if (journals.length === 0) throw exitWith(EXIT.badConfig, `${dir} is not a tarantula repository: no crawl journal in ${STATE_DIR}/`);
  const [previous] = workers.length > 0 ? await existing([previousRound(dir)]) : [];
  const stats = join(dir, 'stats.json');
  let summary: unknown;
  try {
    summary = JSON.parse(await readFile(stats, 'utf8'));
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw exitWith(EXIT.cannotRun, missing ? `${dir} has no stats.json: its crawl was killed before it ended; run its command again (it resumes), then merge` : `${stats} is not the stats of a crawl: ${(err as Error).message}`);
  }
  return { dir, journals, ...(previous !== undefined ? { previous } : {}), stats, completed: (summary as { completed?: unknown } | null)?.completed !== false };
}

/** One WARC file of a part with its CDXJ beside it; `path` is relative to the part. */
export interface PartWarc {
  readonly path: string;
  readonly cdxj: string;
}

const CDXJ_NAME = /^(.*-\d{5,})\.cdxj$/;

/**
 * The WARC files of a part: every `NAME-NNNNN.warc.gz` with its `NAME-NNNNN.cdxj` beside it, in the
 * part's folders but `.tarantula` and the mirror's host folders (named by `mirrorFolders`), so the
 * mirror's million files are not walked and a crawled file is never taken for an archive.
 *
 * @example
 * await partWarcs('/data/a', new Set(['www.a.test'])) //=> [{ path: 'warc/crawl-0-00000.warc.gz', cdxj: '/data/a/warc/crawl-0-00000.cdxj' }]
 */
export async function partWarcs(dir: string, mirrorFolders: ReadonlySet<string>): Promise<PartWarc[]> {
  const found: PartWarc[] = [];
  const walk = async (folder: string, top: boolean): Promise<void> => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    const names = new Set(entries.map((e) => e.name));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!(top && (entry.name === STATE_DIR || mirrorFolders.has(entry.name)))) await walk(path, false);
        continue;
      }
      const m = CDXJ_NAME.exec(entry.name);
      if (entry.isFile() && m !== null && names.has(`${m[1]}.warc.gz`)) found.push({ path: relative(dir, join(folder, `${m[1]}.warc.gz`)).split(sep).join('/'), cdxj: path });
    }
  };
  await walk(dir, true);
  return found;
}

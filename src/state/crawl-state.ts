import { existsSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Candidate, CrawlRequest } from '../model/crawl-request.js';
import { fingerprintSet, type SeenSet } from '../frontier/seen-set.js';
import type { IndexRecord } from '../model/index-record.js';
import type { Writable } from '../model/writable.js';
import { makeDirectory } from '../store/make-directory.js';
import { MIRROR_TEMP_DIR } from '../store/mirror-store.js';
import { hostKey } from '../url/url-parts.js';
import { JournalWriter } from './journal-writer.js';
import type { JournalEvent } from './journal-events.js';
import { readJournal } from './read-journal.js';

/** A page of the last completed crawl, as a recrawl needs it: conditional-request validators and its stored copy. */
export interface KnownPage {
  readonly record: IndexRecord;
  readonly contentType: string | null;
  /** False when the page said noindex: its record is kept, but not in the index. */
  readonly indexed: boolean;
}

/** What a crawl into a repository starts from (SPEC §5, resume and recrawl). */
export interface CrawlState {
  /** A previous run of this crawl was interrupted: it continues. */
  readonly resumed: boolean;
  /** The repository holds a completed crawl: pages are requested conditionally and the index replaced at the end. */
  readonly recrawl: boolean;
  /** The pages of the last completed crawl, by URL (empty unless recrawl). */
  readonly known: ReadonlyMap<string, KnownPage>;
  /** How many requests {@link pending} gives. */
  readonly pendingCount: number;
  /**
   * The requests admitted by the interrupted run and not yet done, in the order they were admitted,
   * read from its journal as they are taken (so a resume of millions holds none of them in memory
   * but in the frontier): they go straight back into the frontier.
   */
  pending(): AsyncIterable<CrawlRequest>;
  /** Seeds of input files that widened the scope in earlier runs of this crawl (or of the last completed one). */
  readonly scopeSeeds: readonly string[];
  /** Documents the interrupted run already fetched (they count towards max-page-number). */
  readonly documents: number;
  /** URLs admitted per host by the interrupted run (max-pages-per-host). */
  readonly hostCounts: Map<string, number>;
  readonly journal: JournalWriter;
  /**
   * Reads the interrupted run's journal again: each indexed record it wrote goes to `onRecord` (to rebuild
   * the index exactly), and links of its last documents that may never have been admitted (lost with
   * the last journal write) are put in {@link relinks}, to be admitted now. `onDocument` gets the
   * record of every document, noindex ones too (to rebuild what the crawl knows of their content).
   */
  replay(onRecord: (rec: IndexRecord) => void, onDocument?: (rec: IndexRecord) => void): Promise<void>;
  /**
   * Keeps the pages of the last crawl that `notDue` says are not to be requested now (adaptive
   * recrawl): each is admitted and recorded in the journal as it was (so the next crawl knows it
   * and a resume does not carry it twice), handed to `onRecord`, and its links put in
   * {@link relinks}, so they still count. Returns how many were kept.
   */
  carryOver(notDue: (rec: IndexRecord) => boolean, onRecord: (page: KnownPage) => void): number;
  /** Filled by {@link replay} and {@link carryOver}: links to admit (of the interrupted run, or of the pages kept without a request). */
  readonly relinks: readonly Candidate[];
  /** Marks the crawl complete: the next run into this repository is a recrawl. */
  complete(): Promise<void>;
}

export const STATE_DIR = '.tarantula';

/** Documents and redirects at the journal's end whose links a resume admits again, in case their admission was lost. */
const RELINK_TAIL = 1024;

/**
 * Opens the crawl state kept in `REPOSITORY/.tarantula/`: an append-only journal of this crawl
 * (`journal.jsonl`) and the journal of the last completed one (`previous.jsonl`). A completed journal
 * found at start becomes `previous.jsonl` and a new crawl — a recrawl — begins.
 *
 * @example
 * const state = await openCrawlState('./repository', seen);
 * state.resumed //=> true after a kill; for await (const req of state.pending()) frontier.push(req)
 *
 * `started`, when given, gets the URLs the interrupted run finished (a document, a redirect, a failure
 * or skip): a URL found again is then not taken for one still waiting (depth-first, priorities).
 * `previous`, when given, is the journal of the last completed crawl kept elsewhere (a worker of a
 * shared crawl: the one its machine's workers completed together), instead of `previous.jsonl` here.
 */
export async function openCrawlState(repository: string, seen: SeenSet, started?: SeenSet, previous?: string): Promise<CrawlState> {
  const dir = join(repository, STATE_DIR);
  await makeDirectory(dir);
  await rm(join(repository, MIRROR_TEMP_DIR), { recursive: true, force: true });
  const journalPath = join(dir, 'journal.jsonl');
  const previousPath = previous ?? join(dir, 'previous.jsonl');
  if (previous === undefined && (await endsCompleted(journalPath))) await rename(journalPath, previousPath);

  const known = new Map<string, KnownPage>();
  const previousSeeds = new Set<string>();
  for await (const e of readJournal(previousPath)) {
    if (e[0] === 'd' && e[2] !== null) known.set(e[1], { record: e[2], contentType: e[3], indexed: e[4] !== false });
    else if (e[0] === 's') previousSeeds.add(e[1]);
  }

  // The URLs that ended, not those pending: the pending ones are read again from the journal when
  // the frontier takes them, so that a resume holds 17 bytes a URL done rather than a request a URL waiting.
  const ended = fingerprintSet();
  /** Pending URLs moved up by later links while they waited: they resume at their highest level. */
  const levelUps = new Map<string, number>();
  /** Sitemaps admitted, with their request: one read at the journal's very end is read again. */
  const sitemaps = new Map<string, CrawlRequest>();
  const hostCounts = new Map<string, number>();
  let documents = 0;
  let resumed = false;
  const scopeSeeds = new Set<string>();
  let ends = 0;
  let pendingCount = 0;
  // Sitemaps read, by their end's number: one of the last RELINK_TAIL may have lost its URLs' admission lines.
  const sitemapsRead = new Map<string, { readonly req: CrawlRequest; readonly end: number }>();
  // The journal as this run found it: what it appends from now on is no part of the interrupted run.
  const journalBytes = await stat(journalPath).then((st) => st.size, () => 0);
  for await (const e of readJournal(journalPath)) {
    resumed = true;
    if (e[0] === 's') scopeSeeds.add(e[1]);
    else if (e[0] === 'a') {
      const url = e[1];
      seen.add(url);
      pendingCount++;
      // As hostLimit counts: a sitemap is no document of its host. Only a sitemap's request is built
      // here: the others are read again from the journal when the frontier takes them.
      if (e[5]?.sitemap === undefined) {
        const host = hostKey(url);
        hostCounts.set(host, (hostCounts.get(host) ?? 0) + 1);
      } else sitemaps.set(url, admitted(e));
    } else if (e[0] === 'l') {
      if (!ended.has(e[1]) && e[2] > (levelUps.get(e[1]) ?? 1)) levelUps.set(e[1], e[2]);
    } else if (e[0] === 'd' || e[0] === 'x' || e[0] === 'r') {
      const url = e[1];
      if (ended.add(url) && seen.has(url)) pendingCount--;
      levelUps.delete(url);
      ends++;
      const sitemap = sitemaps.get(url);
      if (e[0] === 'x' && e[2] === 'sitemap' && sitemap !== undefined) sitemapsRead.set(url, { req: sitemap, end: ends });
      else started?.add(url);
      if (e[0] === 'd' && e[5] !== true) documents++;
    }
  }
  // Only the last writes can have been lost (as for the relinks below): a sitemap read among them is read again.
  const readAgain: CrawlRequest[] = [];
  for (const [url, { req, end }] of sitemapsRead) {
    if (end > ends - RELINK_TAIL) readAgain.push(req);
    else started?.add(url);
  }
  pendingCount += readAgain.length;

  const journal = await JournalWriter.open(journalPath);
  const relinks: Candidate[] = [];
  journal.append(['start', new Date().toISOString()]);
  // This journal alone must be enough to resume: it gets the last crawl's seeds it lacks.
  for (const seed of previousSeeds) {
    if (scopeSeeds.has(seed)) continue;
    scopeSeeds.add(seed);
    journal.append(['s', seed]);
  }
  return {
    resumed,
    recrawl: known.size > 0,
    known,
    pendingCount,
    async *pending() {
      if (journalBytes === 0) return;
      for await (const e of readJournal(journalPath, journalBytes)) {
        if (e[0] !== 'a' || ended.has(e[1])) continue;
        const req = admitted(e);
        const level = levelUps.get(e[1]);
        yield level === undefined || level <= (req.level ?? 1) ? req : { ...req, level };
      }
      yield* readAgain;
    },
    scopeSeeds: [...scopeSeeds],
    documents,
    hostCounts,
    journal,
    relinks,
    async replay(onRecord, onDocument) {
      // Only the last writes can have been lost: the links of the last documents and redirects are enough.
      const tail: Candidate[][] = [];
      let ends = 0;
      for await (const e of readJournal(journalPath)) {
        let found: Candidate[] | undefined;
        if (e[0] === 'd' && e[2] !== null) {
          const rec = e[2];
          if (e[4] !== false) onRecord(rec);
          onDocument?.(rec);
          found = rec.links.map((link) => ({ href: link.url, url: link.url, vetted: true, depth: rec.depth + 1 }));
        } else if (e[0] === 'r') {
          const [, url, location, depth, originalUrl, redirects] = e;
          found = [{ href: location, base: url, depth, originalUrl, redirects: redirects + 1 }];
        }
        if (found === undefined) continue;
        tail[ends++ % RELINK_TAIL] = found;
      }
      for (const found of tail) for (const c of found) if (c.url === undefined || !seen.has(c.url)) relinks.push(c);
    },
    carryOver(notDue, onRecord) {
      let kept = 0;
      for (const page of known.values()) {
        const rec = page.record;
        if (!notDue(rec) || seen.has(rec.url)) continue;
        seen.add(rec.url);
        const host = hostKey(rec.url);
        hostCounts.set(host, (hostCounts.get(host) ?? 0) + 1);
        journal.append(['a', rec.url, rec.depth, rec.originalUrl, 0]);
        journal.append(['d', rec.url, rec, page.contentType, page.indexed, true]);
        onRecord(page);
        for (const link of rec.links) relinks.push({ href: link.url, url: link.url, vetted: true, base: rec.url, depth: rec.depth + 1 });
        kept++;
      }
      return kept;
    },
    async complete() {
      journal.append(['end', new Date().toISOString()]);
      await journal.flush();
    },
  };
}

/** The request an admission line of the journal stands for, as the frontier had it. */
function admitted(e: Extract<JournalEvent, readonly ['a', ...unknown[]]>): CrawlRequest {
  const [, url, depth, originalUrl, redirects, sitemap, level] = e;
  // A resume reads millions of these: the optional fields set one by one (see `Writable`).
  const req: Writable<CrawlRequest> = { url, host: hostKey(url), depth, originalUrl: originalUrl ?? url, redirects, attempt: 0 };
  if (sitemap?.sitemap !== undefined) req.sitemap = sitemap.sitemap;
  if (sitemap?.lastmod !== undefined) req.sitemapLastmod = sitemap.lastmod;
  if (level !== undefined) req.level = level;
  return req;
}

/**
 * Whether the repository holds a crawl's journal: a crawl to resume, or one to recrawl. Its seeds,
 * from the configuration and from input files, are in the journal, so it needs none given again.
 *
 * @example
 * hasCrawlState('./repository') //=> true after any crawl into it
 */
export function hasCrawlState(repository: string): boolean {
  return existsSync(join(repository, STATE_DIR, 'journal.jsonl'));
}

/** Whether a journal's last line is the `end` marker (read from the file's tail, not the whole file). */
async function endsCompleted(path: string): Promise<boolean> {
  const size = await stat(path).then((s) => s.size, () => -1);
  if (size <= 0) return false;
  const fh = await open(path, 'r');
  try {
    const length = Math.min(size, 256);
    const buffer = Buffer.alloc(length);
    await fh.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').trimEnd().split('\n');
    return lines[lines.length - 1]?.startsWith('["end"') ?? false;
  } finally {
    await fh.close();
  }
}

import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { ReplaySubject, timer, type Observable } from 'rxjs';
import { archiveOf } from '../archive/warc-archive.js';
import type { CrawlerConfig } from '../model/config.js';
import { ConfigError } from '../config/config-error.js';
import { crawl, type CrawlSpec } from '../engine/crawl.js';
import { createCrawlContext, startedSet, type CrawlContext, type NetworkHooks, type SharedParts } from '../engine/crawl-context.js';
import { defaultSpec } from '../engine/default-spec.js';
import type { Outcome } from '../model/outcome.js';
import type { CrawlSinks, CrawlStop, Pipeline } from '../engine/pipeline.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { IndexWriter } from '../output/index-writer.js';
import type { IndexRecord } from '../model/index-record.js';
import { journalOutcomes } from '../sinks/journal-outcomes.js';
import { logOutcomes } from '../sinks/log-outcomes.js';
import { recordStats } from '../sinks/record-stats.js';
import { writeIndex } from '../sinks/write-index.js';
import { openSeedInputs } from '../input/input-seeds.js';
import { openCrawlState } from '../state/crawl-state.js';
import { withoutSessionIds } from '../url/query-params.js';
import { startProgress } from './progress.js';

/** Exit statuses of SPEC §2. */
export const EXIT = { ok: 0, cannotRun: 1, badConfig: 2, sigint: 130, sigterm: 143 } as const;

/** setTimeout's ceiling: a longer time limit is checked again when this much has passed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RunCrawlOptions {
  readonly stdout: Writable;
  /** The pipeline to run; the default is SPEC §1's crawl with its sinks. It must complete when `stop` emits. */
  readonly pipeline?: Pipeline;
  /** Whether SIGINT/SIGTERM stop this crawl (the CLI); a library caller may handle them itself. */
  readonly handleSignals?: boolean;
  /** The clock recrawl schedules are kept on (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
  /** Where connections go (a test's recording connector); default: DNS and the network. */
  readonly network?: NetworkHooks;
  /** What `-i -` reads. Default: process.stdin. */
  readonly stdin?: Readable;
  /** Makes this crawl one worker of a shared crawl (SPEC §8). */
  readonly worker?: CrawlWorker;
}

/**
 * What makes a crawl one worker of a crawl shared through Redis: its own journal, index part and
 * stats, the shared frontier, and a way to hear that the shared frontier failed.
 */
export interface CrawlWorker extends SharedParts {
  /** Holds the worker's state, index part and stats (the mirror stays in the repository). */
  readonly dir: string;
  readonly pipeline: Pipeline;
  /** Emits when the shared frontier is lost: the worker stops, exit 1. */
  readonly failure: Observable<Error>;
  /** After the crawl, before the sinks close: hands back what the worker holds. */
  close(): Promise<void>;
}

export interface RunCrawlResult {
  readonly exitCode: number;
  readonly ctx: CrawlContext;
}

/** The default pipeline of `tarantula crawl`: SPEC §1's crawl, then stats, log, journal and index. */
export function defaultPipeline(ctx: CrawlContext, { stop, writers }: CrawlSinks, spec: CrawlSpec<Outcome> = defaultSpec(ctx)): Observable<Outcome> {
  return crawl({ ...spec, stop }).pipe(
    recordStats(ctx.stats),
    logOutcomes(ctx.log),
    journalOutcomes(ctx.state.journal),
    writeIndex(writers),
  );
}

/**
 * Runs one crawl to its end: prepares the repository and its state (resuming an interrupted crawl,
 * or starting a recrawl of a completed one), opens the index writers, crawls, and on every way out
 * (done, limit, signal, broken pipe) flushes the sinks and writes the end-of-crawl stats.
 *
 * @example
 * const { exitCode } = await runCrawl(config, log, { stdout: process.stdout, handleSignals: true });
 */
export async function runCrawl(config: CrawlerConfig, log: CrawlLogger, opts: RunCrawlOptions): Promise<RunCrawlResult> {
  const { worker } = opts;
  if (config.frontier !== undefined && worker === undefined)
    throw new ConfigError('ARG_BAD_VALUE', 'frontier', `a shared frontier (${config.frontier}) works with tarantula crawl only, without --watch`);
  if (config.frontier === undefined && config.workers > 1)
    throw new ConfigError('ARG_BAD_VALUE', 'workers', `${config.workers} worker processes need a shared frontier (frontier = redis://HOST:PORT/DB)`);
  // Before the repository is touched: a missing input file is a bad command line (exit 2).
  const inputs = await openSeedInputs(config.inputFiles, opts.stdin ?? process.stdin);
  const repo = resolve(config.repository);
  // Where the state, the index and the stats live: the repository, or the worker's own folder in it.
  const home = worker?.dir ?? repo;
  const seen = fingerprintSet(undefined, withoutSessionIds);
  const started = worker ? undefined : startedSet(config);
  let state;
  try {
    await mkdir(home, { recursive: true });
    const probe = join(repo, `.tarantula-probe-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
    // A worker's journal must not fill its seen-set: only Redis knows what was admitted.
    state = await openCrawlState(home, worker ? fingerprintSet() : seen, started);
  } catch (err) {
    log.error(`the repository ${config.repository} is not writable: ${(err as Error).message}`);
    throw Object.assign(new Error(`the repository ${config.repository} is not writable: ${(err as Error).message}`), { exitCode: EXIT.cannotRun });
  }
  let archiving;
  try {
    archiving = await archiveOf(config);
  } catch (err) {
    const message = `cannot open the WARC ${config.warcFile}: ${(err as Error).message}`;
    log.error(message);
    throw Object.assign(new Error(message), { exitCode: EXIT.cannotRun });
  }
  // Counted in Redis for a shared crawl; the journal's count may include admissions Redis never got.
  if (worker) state.hostCounts.clear();
  const ctx = createCrawlContext(config, log, seen, state, {
    ...(opts.now ? { now: opts.now } : {}), ...(started ? { started } : {}), ...(archiving ? { archiving } : {}), inputs, ...(worker ? { shared: worker } : {}), ...(opts.network ? { network: opts.network } : {}),
  });

  // Replayed: a signal that comes while the sinks are being opened still stops the crawl.
  const stopped = new ReplaySubject<string>(1);
  let exitCode: number = EXIT.ok;
  let interrupted = false;
  const halt = (code: number, why: string, hard: boolean): void => {
    if (exitCode === EXIT.ok) exitCode = code;
    interrupted ||= hard;
    log.info({ reason: why }, 'stopping');
    stopped.next(why);
    // Cut short, the requests in flight come back as `unfinished`: pending, not failed.
    if (hard) ctx.abort.abort();
  };
  const stop: CrawlStop = Object.assign(stopped.asObservable(), { now: (reason: string) => halt(EXIT.ok, reason, true) });
  const onSigint = (): void => halt(EXIT.sigint, 'SIGINT', true);
  const onSigterm = (): void => halt(EXIT.sigterm, 'SIGTERM', true);
  const releaseSignals = (): void => {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  };
  // From here until the journal and the index are closed, a signal stops the crawl in order instead
  // of killing the process halfway through a write.
  if (opts.handleSignals) {
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
  }

  // A recrawl writes a new index and puts it in place when it completes (SPEC §5).
  const indexPath = join(home, 'index.txt');
  const writing = state.recrawl ? `${indexPath}.new` : indexPath;
  const writers: IndexWriter[] = [];
  let notDue = 0;
  // Pages this run did not fetch itself (an interrupted run did, or they were not due) count for
  // near-duplicates and for the next recrawl as if it had.
  const remember = (rec: IndexRecord): void => {
    if (rec.simhash != null && rec.duplicateOf === null && rec.nearDuplicateOf == null) ctx.near.index.add(rec.simhash, rec.url);
    ctx.schedule.carry(rec);
  };
  try {
    writers.push(await IndexWriter.open(writing, { format: 'seed' }));
    // A worker writes only its part; the supervisor merges the parts into both indexes.
    if (worker === undefined && config.indexFile !== undefined && config.indexFile !== '-') writers.push(await IndexWriter.open(config.indexFile, { format: config.indexFormat }));
    const files = [...writers];
    await state.replay(
      (rec) => files.forEach((w) => w.write(rec)),
      remember,
    );
    if (worker === undefined && config.indexFile === '-')
      writers.push(await IndexWriter.open(opts.stdout, { format: config.indexFormat, onBrokenPipe: () => stop.now('stdout closed') }));
    // Adaptive recrawl: the pages not due keep their records and copies without a request.
    notDue = !ctx.schedule.adaptive ? 0 : state.carryOver((rec) => !ctx.schedule.isDue(rec), ({ record, indexed }) => {
      if (indexed) writers.forEach((w) => w.write(record));
      remember(record);
    });
  } catch (err) {
    releaseSignals();
    throw err;
  }
  // A shared crawl's pending requests are in Redis.
  if (worker === undefined) ctx.frontier.pushAll(state.pending);
  const lost = worker?.failure.subscribe((err) => {
    log.error(`lost the Redis frontier at ${config.frontier}: ${err.message}; stopping (a rerun once it is back resumes the crawl)`);
    halt(EXIT.cannotRun, 'frontier lost', true);
  });

  const limit = config.timeLimitMs;
  const timeLimit = limit > 0 ? timer(Math.min(limit, MAX_TIMER_MS)).subscribe(() => halt(EXIT.ok, 'time-limit', false)) : undefined;

  log.info(
    {
      seeds: config.startingPoints,
      ...(inputs.length > 0 ? { inputFiles: inputs.map((i) => i.name) } : {}),
      repository: config.repository,
      mode: state.recrawl ? 'recrawl' : 'crawl',
      resumed: state.resumed,
      ...(state.resumed ? { pending: state.pending.length, documentsBefore: state.documents } : {}),
      ...(state.recrawl ? { knownPages: state.known.size } : {}),
      ...(ctx.schedule.adaptive && state.recrawl ? { notDue } : {}),
    },
    state.resumed ? 'crawl resumed' : 'crawl started',
  );
  const pipeline = opts.pipeline ?? worker?.pipeline ?? defaultPipeline;
  const stopProgress = startProgress(ctx, process.stderr);
  let failed = false;
  try {
    await new Promise<void>((done, fail) => pipeline(ctx, { stop, writers, stdout: opts.stdout }).subscribe({ complete: done, error: fail }));
  } catch (err) {
    failed = true;
    log.error({ err }, 'the crawl failed');
    exitCode = EXIT.cannotRun;
  } finally {
    timeLimit?.unsubscribe();
    stopProgress();
    try {
      await worker?.close().catch((err: unknown) => log.error({ err }, 'cannot give the hosts back to the shared frontier'));
      lost?.unsubscribe();
      // A worker never marks its journal complete: a shared crawl is resumed, not recrawled, by running it again.
      await finish(ctx, writers, { completed: !interrupted && !failed, shared: worker !== undefined, home, indexPath, writing });
    } finally {
      releaseSignals();
    }
  }
  return { exitCode, ctx };
}

async function finish(
  ctx: CrawlContext,
  writers: readonly IndexWriter[],
  how: { completed: boolean; shared: boolean; home: string; indexPath: string; writing: string },
): Promise<void> {
  const { log, state } = ctx;
  for (const writer of writers) await writer.close().catch((err: unknown) => log.error({ err }, 'cannot write the index'));
  if (how.completed && !how.shared) await state.complete();
  await state.journal.close().catch((err: unknown) => log.error({ err }, 'cannot write the crawl journal'));
  if (how.completed && how.writing !== how.indexPath) await rename(how.writing, how.indexPath);
  const summary = { ...ctx.stats.summary(), pending: ctx.frontier.size, completed: how.completed, ...(state.recrawl ? { recrawl: ctx.stats.recrawlSummary() } : {}) };
  await writeFile(join(how.home, 'stats.json'), JSON.stringify(summary, null, 2) + '\n').catch((err: unknown) =>
    log.error({ err }, 'cannot write stats.json'),
  );
  const returned = ctx.stats.returned;
  if (returned > 0) log.info({ returned }, `${returned} request${returned === 1 ? '' : 's'} in flight when the crawl stopped ${returned === 1 ? 'is' : 'are'} pending again`);
  log.info(summary, how.completed ? 'crawl finished' : 'crawl interrupted; run the same command again to resume');
  await ctx.close();
}

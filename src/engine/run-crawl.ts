import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { ReplaySubject, timer, type Observable } from 'rxjs';
import { archiveOf } from '../archive/warc-archive.js';
import type { CrawlerConfig } from '../config/config.js';
import { crawl } from './crawl.js';
import { createCrawlContext, type CrawlContext, type NetworkHooks } from './crawl-context.js';
import { defaultSpec } from './default-spec.js';
import type { Outcome } from './outcome.js';
import type { CrawlSinks, CrawlStop, Pipeline } from './pipeline.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { IndexWriter } from '../output/index-writer.js';
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
  /** Where connections go (a test's recording connector); default: DNS and the network. */
  readonly network?: NetworkHooks;
  /** What `-i -` reads. Default: process.stdin. */
  readonly stdin?: Readable;
}

export interface RunCrawlResult {
  readonly exitCode: number;
  readonly ctx: CrawlContext;
}

/** The default pipeline of `tarantula crawl`: SPEC §1's crawl, then stats, log, journal and index. */
export function defaultPipeline(ctx: CrawlContext, { stop, writers }: CrawlSinks): Observable<Outcome> {
  return crawl({ ...defaultSpec(ctx), stop }).pipe(
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
  // Before the repository is touched: a missing input file is a bad command line (exit 2).
  const inputs = await openSeedInputs(config.inputFiles, opts.stdin ?? process.stdin);
  const repo = resolve(config.repository);
  const seen = fingerprintSet(undefined, withoutSessionIds);
  let state;
  try {
    await mkdir(repo, { recursive: true });
    const probe = join(repo, `.tarantula-probe-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
    state = await openCrawlState(repo, seen);
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
  const ctx = createCrawlContext(config, log, seen, state, archiving, inputs, opts.network);

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
  const indexPath = join(repo, 'index.txt');
  const writing = state.recrawl ? `${indexPath}.new` : indexPath;
  const writers: IndexWriter[] = [];
  try {
    writers.push(await IndexWriter.open(writing, { format: 'seed' }));
    if (config.indexFile !== undefined && config.indexFile !== '-') writers.push(await IndexWriter.open(config.indexFile, { format: config.indexFormat }));
    const files = [...writers];
    await state.replay((rec) => files.forEach((w) => w.write(rec)));
    if (config.indexFile === '-')
      writers.push(await IndexWriter.open(opts.stdout, { format: config.indexFormat, onBrokenPipe: () => stop.now('stdout closed') }));
  } catch (err) {
    releaseSignals();
    throw err;
  }
  ctx.frontier.pushAll(state.pending);

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
    },
    state.resumed ? 'crawl resumed' : 'crawl started',
  );
  const pipeline = opts.pipeline ?? defaultPipeline;
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
      await finish(ctx, writers, { completed: !interrupted && !failed, indexPath, writing });
    } finally {
      releaseSignals();
    }
  }
  return { exitCode, ctx };
}

async function finish(
  ctx: CrawlContext,
  writers: readonly IndexWriter[],
  how: { completed: boolean; indexPath: string; writing: string },
): Promise<void> {
  const { log, state } = ctx;
  for (const writer of writers) await writer.close().catch((err: unknown) => log.error({ err }, 'cannot write the index'));
  if (how.completed) await state.complete();
  await state.journal.close().catch((err: unknown) => log.error({ err }, 'cannot write the crawl journal'));
  if (how.completed && how.writing !== how.indexPath) await rename(how.writing, how.indexPath);
  const summary = { ...ctx.stats.summary(), pending: ctx.frontier.size, completed: how.completed, ...(state.recrawl ? { recrawl: ctx.stats.recrawlSummary() } : {}) };
  await writeFile(join(resolve(ctx.config.repository), 'stats.json'), JSON.stringify(summary, null, 2) + '\n').catch((err: unknown) =>
    log.error({ err }, 'cannot write stats.json'),
  );
  const returned = ctx.stats.returned;
  if (returned > 0) log.info({ returned }, `${returned} request${returned === 1 ? '' : 's'} in flight when the crawl stopped ${returned === 1 ? 'is' : 'are'} pending again`);
  log.info(summary, how.completed ? 'crawl finished' : 'crawl interrupted; run the same command again to resume');
  await ctx.close();
}

import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { timer, type Observable } from 'rxjs';
import type { CrawlerConfig } from '../model/config.js';
import { ConfigError } from '../config/config-error.js';
import { createCrawlContext, startedSet, type CrawlContext, type SharedParts } from '../engine/crawl-context.js';
import type { NetworkHooks } from '../engine/fetcher.js';
import { defaultPipeline } from '../engine/default-pipeline.js';
import type { Pipeline } from '../engine/pipeline.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { openSeedInputs, type SeedInput } from '../input/input-seeds.js';
import { passwordsHidden, withoutPassword } from '../config/without-password.js';
import { withoutSessionIds } from '../url/query-params.js';
import { EXIT, exitWith } from './exit-status.js';
import { findChromium } from '../render/find-chromium.js';
import { finishCrawl } from './finish-crawl.js';
import { liveCrawl, type ServeCrawl } from './live-crawl.js';
import { openIndex } from './open-index.js';
import { isBrokenPipe } from '../output/index-writer.js';
import { openRepository } from './open-repository.js';
import { holdRepository } from './hold-repository.js';
import { startProgress } from './progress.js';
import { stopping } from './stopping.js';

/** setTimeout's ceiling: a longer time limit is checked again when this much has passed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How {@link runCrawl} runs a crawl: where its data goes, which pipeline, signals, progress, and the hooks of tests and workers. */
export interface RunCrawlOptions {
  /** Where data goes (`--index -`, a pipeline's output); never logs. */
  readonly stdout: Writable;
  /** The pipeline to run; the default is {@link defaultPipeline}. It must complete when its `stop` emits. */
  readonly pipeline?: Pipeline;
  /** Whether SIGINT/SIGTERM stop this crawl (the CLI); a library caller may handle them itself. */
  readonly handleSignals?: boolean;
  /** Where the progress line (at a terminal) goes; none when absent, but the log's own terminal. */
  readonly progress?: NodeJS.WriteStream;
  /** The clock recrawl schedules are kept on (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
  /** Where connections go (a test's recording connector); default: DNS and the network. */
  readonly network?: NetworkHooks;
  /** What `-i -` reads. Default: process.stdin. */
  readonly stdin?: Readable;
  /** Makes this crawl one worker of a shared crawl (SPEC §8). */
  readonly worker?: CrawlWorker;
  /** `--serve`: serves the crawl while it runs (metrics, status, control), from before its first request until its sinks are flushed. */
  readonly serve?: ServeCrawl;
}

/** How the command line runs a crawl: data on stdout, progress on stderr, signals stop it in order. */
export const commandLine = (): Pick<RunCrawlOptions, 'stdout' | 'handleSignals' | 'progress'> => ({
  stdout: process.stdout,
  handleSignals: true,
  progress: process.stderr,
});

/**
 * What makes a crawl one worker of a crawl shared through Redis: its own journal, index part and
 * stats, the shared frontier, and a way to hear that the shared frontier failed.
 */
export interface CrawlWorker extends SharedParts {
  /** Holds the worker's state, index part and stats (the mirror stays in the repository). */
  readonly dir: string;
  /** The pid of the command that started this worker and holds the repository: the worker runs under its lock. */
  readonly supervisor: number;
  /** The journal of the last round of the crawl that this machine's workers completed: a recrawl revalidates its pages. */
  readonly previous: string;
  readonly pipeline: Pipeline;
  /** Emits when the shared frontier is lost: the worker stops, exit 1. */
  readonly failure: Observable<Error>;
  /** After the crawl, before the sinks close: hands back what the worker holds. */
  close(): Promise<void>;
}

/** How a crawl ended: its exit status (SPEC §2), and its context, for what the caller reads after it (stats, the schedule). */
export interface RunCrawlResult {
  readonly exitCode: number;
  /** Nothing stopped it early (a signal, the time limit, a closed stdout, a failure): it ran to its end. */
  readonly completed: boolean;
  readonly ctx: CrawlContext;
}

/**
 * Runs one crawl to its end: holds the repository (one crawl at a time, SPEC §15), prepares it and
 * its state (resuming an interrupted crawl, or starting a recrawl of a completed one), opens the
 * index writers, crawls, and on every way out (done, limit, signal, broken pipe, lost frontier)
 * flushes the sinks and writes the end-of-crawl stats.
 *
 * @example
 * const { exitCode } = await runCrawl(config, log, commandLine());
 */
export async function runCrawl(config: CrawlerConfig, log: CrawlLogger, opts: RunCrawlOptions): Promise<RunCrawlResult> {
  const { worker } = opts;
  if (config.frontier !== undefined && worker === undefined)
    throw new ConfigError('arg-bad-value', 'frontier', `a shared frontier (${withoutPassword(config.frontier)}) is run by its worker processes (runWorker), not by runCrawl alone`);
  if (config.frontier === undefined && config.workers > 1)
    throw new ConfigError('arg-bad-value', 'workers', `${config.workers} worker processes need a shared frontier (frontier = redis://HOST:PORT/DB)`);
  if (config.render !== 'never' && findChromium(config.chromiumPath) === undefined)
    throw exitWith(EXIT.cannotRun, `render = ${config.render} needs Chromium: none at chromium-path${config.chromiumPath ? ` (${config.chromiumPath})` : ' nor on PATH'}; install it (apt-get install chromium) or set chromium-path`);
  // Before the repository is touched: a missing input file is a bad command line (exit 2).
  const inputs = await openSeedInputs(config.inputFiles, opts.stdin ?? process.stdin);
  return holdRepository(config.repository, log, () => crawlHeld(config, log, opts, inputs), worker ? { under: worker.supervisor } : {});
}

/** {@link runCrawl} once the repository is held. */
async function crawlHeld(config: CrawlerConfig, log: CrawlLogger, opts: RunCrawlOptions, inputs: readonly SeedInput[]): Promise<RunCrawlResult> {
  const { worker } = opts;
  const repository = resolve(config.repository);
  const home = worker?.dir ?? repository;
  const seen = fingerprintSet(undefined, withoutSessionIds);
  const started = worker ? undefined : startedSet(config);
  // A worker's journal must not fill its seen-set: only Redis knows what was admitted.
  const { state, archiving } = await openRepository(config, log, { home, repository, seen: worker ? fingerprintSet() : seen, started, ...(worker ? { previous: worker.previous } : {}) });
  // Counted in Redis for a shared crawl; the journal's count may include admissions Redis never got.
  if (worker) state.hostCounts.clear();
  const ctx = createCrawlContext(config, log, seen, state, {
    ...(opts.now ? { now: opts.now } : {}), ...(started ? { started } : {}), ...(archiving ? { archiving } : {}), inputs, ...(worker ? { shared: worker } : {}), ...(opts.network ? { network: opts.network } : {}),
  });

  const stop = stopping(log, () => ctx.fetcher.abort.abort());
  // From here until the journal and the index are closed, a signal stops the crawl in order instead
  // of killing the process halfway through a write.
  const stopListening = opts.handleSignals ? stop.onSignals() : () => undefined;
  let index;
  let closeServer: (() => Promise<void>) | undefined;
  try {
    closeServer = await opts.serve?.(liveCrawl(ctx, stop));
    index = await openIndex(ctx, { home, stdout: opts.stdout, shared: worker !== undefined, onBrokenPipe: () => stop.stop.now('stdout closed') });
  } catch (err) {
    await closeServer?.();
    // Nothing was crawled: the journal holds what it held, and the document workers must not keep the process alive.
    await state.journal.close().catch(() => undefined);
    await ctx.close().catch(() => undefined);
    stopListening();
    throw err;
  }
  // A shared crawl's pending requests are in Redis.
  // One by one in the order they were admitted, read from the journal: a depth-first crawl resumes with the newest, as it would have gone on.
  if (worker === undefined) for await (const req of state.pending()) ctx.frontier.push(req);
  const lost = worker?.failure.subscribe((err) => {
    log.error(`lost the Redis frontier at ${withoutPassword(config.frontier)}: ${passwordsHidden(err.message)}; stopping (a rerun once it is back resumes the crawl)`);
    stop.halt(EXIT.cannotRun, 'frontier lost', true);
  });
  // A mirror, a WARC or the frontier's spill files that can take no more (a full disk) stop the crawl: what
  // the mirror or the WARC could not take stays pending, what the frontier could not write stays in memory.
  const full = [ctx.documents.pool.full, ...(archiving ? [archiving.archive.failed] : []), ...(ctx.frontierFiles ? [ctx.frontierFiles.full] : [])];
  void Promise.race(full).then((err) => {
    log.error(`${err.message}; stopping (a rerun once there is room resumes the crawl)`);
    stop.halt(EXIT.cannotRun, 'no room', true);
  });
  const limit = config.timeLimitMs;
  const timeLimit = limit > 0 ? timer(Math.min(limit, MAX_TIMER_MS)).subscribe(() => stop.halt(EXIT.ok, 'time-limit', false)) : undefined;

  log.info(
    {
      seeds: config.startingPoints,
      ...(inputs.length > 0 ? { inputFiles: inputs.map((i) => i.name) } : {}),
      repository: config.repository,
      mode: state.recrawl ? 'recrawl' : 'crawl',
      resumed: state.resumed,
      ...(state.resumed ? { pending: state.pendingCount, documentsBefore: state.documents } : {}),
      ...(state.recrawl ? { knownPages: state.known.size } : {}),
      ...(ctx.schedule.adaptive && state.recrawl ? { notDue: index.notDue } : {}),
    },
    state.resumed ? 'crawl resumed' : 'crawl started',
  );
  const pipeline = opts.pipeline ?? worker?.pipeline ?? defaultPipeline;
  const stopProgress = startProgress(ctx, opts.progress);
  // A pipeline writes what it likes to stdout: a reader that goes away stops the crawl as it does for `--index -`.
  const onStdoutError = (err: unknown): void => {
    if (isBrokenPipe(err)) stop.stop.now('stdout closed');
    else log.error({ err }, 'cannot write to stdout');
  };
  opts.stdout.on('error', onStdoutError);
  let failed = false;
  try {
    await new Promise<void>((done, fail) => pipeline(ctx, { stop: stop.stop, writers: index.writers, stdout: opts.stdout }).subscribe({ complete: done, error: fail }));
  } catch (err) {
    failed = true;
    log.error({ err }, 'the crawl failed');
  } finally {
    timeLimit?.unsubscribe();
    stopProgress();
    opts.stdout.off('error', onStdoutError);
    try {
      await worker?.close().catch((err: unknown) => log.error({ err }, 'cannot give the hosts back to the shared frontier'));
      lost?.unsubscribe();
      await finishCrawl(ctx, index.writers, { completed: completedBy(stop, failed), shared: worker !== undefined, home, indexPath: index.indexPath, writing: index.writing });
    } finally {
      await closeServer?.().catch((err: unknown) => log.error({ err }, 'cannot close the server of --serve'));
      stopListening();
    }
  }
  return { exitCode: failed ? EXIT.cannotRun : stop.exitCode, completed: completedBy(stop, failed), ctx };
}

/** A crawl ran to its end when nothing stopped it early (a signal, the time limit, a closed stdout) and it did not fail. */
const completedBy = (stop: { readonly interrupted: boolean }, failed: boolean): boolean => !stop.interrupted && !failed;

import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { Subject, timer, type Observable } from 'rxjs';
import type { CrawlerConfig } from '../config/config.js';
import { crawl } from '../engine/crawl.js';
import { createCrawlContext, type CrawlContext } from '../engine/crawl-context.js';
import { defaultSpec } from '../engine/default-spec.js';
import type { Outcome } from '../engine/outcome.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { IndexWriter } from '../output/index-writer.js';
import { logOutcomes } from '../sinks/log-outcomes.js';
import { recordStats } from '../sinks/record-stats.js';
import { writeIndex } from '../sinks/write-index.js';

/** Exit statuses of SPEC §2. */
export const EXIT = { ok: 0, cannotRun: 1, badConfig: 2, sigint: 130, sigterm: 143 } as const;

export interface RunCrawlOptions {
  readonly stdout: Writable;
  /** Builds the pipeline from the crawl's context; the default is SPEC §1's crawl with its sinks. */
  readonly pipeline?: (ctx: CrawlContext, stop: Observable<unknown>) => Observable<unknown>;
  /** Whether SIGINT/SIGTERM stop this crawl (the CLI); a library caller may handle them itself. */
  readonly handleSignals?: boolean;
}

export interface RunCrawlResult {
  readonly exitCode: number;
  readonly ctx: CrawlContext;
}

/**
 * Runs one crawl to its end: prepares the repository, opens the index writers, crawls, and on every
 * way out (done, limit, signal, broken pipe) flushes the sinks and writes the end-of-crawl stats.
 *
 * @example
 * const { exitCode } = await runCrawl(config, log, { stdout: process.stdout, handleSignals: true });
 */
export async function runCrawl(config: CrawlerConfig, log: CrawlLogger, opts: RunCrawlOptions): Promise<RunCrawlResult> {
  const ctx = createCrawlContext(config, log);
  const repo = resolve(config.repository);
  try {
    await mkdir(repo, { recursive: true });
    const probe = join(repo, `.tarantula-probe-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
  } catch (err) {
    log.error({ repository: config.repository, err: (err as Error).message }, 'the repository is not writable');
    await ctx.close();
    return { exitCode: EXIT.cannotRun, ctx };
  }

  const stop = new Subject<void>();
  let exitCode: number = EXIT.ok;
  const halt = (code: number, why: string): void => {
    if (exitCode === EXIT.ok) exitCode = code;
    log.info({ reason: why }, 'stopping');
    stop.next();
    ctx.abort.abort();
  };

  const writers = [await IndexWriter.open(join(repo, 'index.txt'), { format: 'seed' })];
  if (config.indexFile !== undefined) {
    writers.push(
      config.indexFile === '-'
        ? await IndexWriter.open(opts.stdout, { format: config.indexFormat, onBrokenPipe: () => halt(EXIT.ok, 'stdout closed') })
        : await IndexWriter.open(config.indexFile, { format: config.indexFormat }),
    );
  }

  const onSigint = (): void => halt(EXIT.sigint, 'SIGINT');
  const onSigterm = (): void => halt(EXIT.sigterm, 'SIGTERM');
  if (opts.handleSignals) {
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
  }
  const timeLimit = config.timeLimitMs > 0 ? timer(config.timeLimitMs).subscribe(() => halt(EXIT.ok, 'time-limit')) : undefined;

  log.info({ seeds: config.startingPoints, repository: config.repository, scope: config.scope, traversal: config.traversal, threads: config.threads }, 'crawl started');
  const pipeline =
    opts.pipeline ??
    ((c: CrawlContext, s: Observable<unknown>): Observable<Outcome> =>
      crawl({ ...defaultSpec(c), stop: s }).pipe(recordStats(c.stats), logOutcomes(c.log), writeIndex(writers)));
  try {
    await new Promise<void>((done, fail) => pipeline(ctx, stop).subscribe({ complete: done, error: fail }));
  } catch (err) {
    log.error({ err }, 'the crawl failed');
    exitCode = EXIT.cannotRun;
  } finally {
    timeLimit?.unsubscribe();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    for (const writer of writers) await writer.close().catch((err: unknown) => log.error({ err }, 'cannot write the index'));
    const summary = { ...ctx.stats.summary(), pending: ctx.frontier.size };
    await writeFile(join(repo, 'stats.json'), JSON.stringify(summary, null, 2) + '\n').catch(() => undefined);
    log.info(summary, 'crawl finished');
    await ctx.close();
  }
  return { exitCode, ctx };
}

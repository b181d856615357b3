import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { CrawlerConfig } from '../model/config.js';
import { EXIT, exitWith } from '../app/exit-status.js';
import { holdRepository } from '../app/hold-repository.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { MIRROR_TEMP_DIR } from '../store/mirror-store.js';
import { beginRound, roundCrawlId } from './crawl-round.js';
import { foldCompletedRound, mergeIndexParts, sumWorkerStats } from './merge-worker-parts.js';
import { passwordsHidden, withoutPassword } from '../config/without-password.js';
import { connectFrontier } from './connect-frontier.js';
import { openCrawlShards } from './crawl-shards.js';
import { crawlIdOf } from './redis-frontier-url.js';
import { relayLines } from './relay-lines.js';

/** The environment variable that makes a `tarantula crawl` process worker SLOT of its supervisor. */
export const WORKER_SLOT_ENV = 'TARANTULA_WORKER_SLOT';
/**
 * The environment variable that hands a worker its command line (JSON), passwords and all: the
 * command line itself, which `ps` shows to every user of the machine, has them as `***`. A process's
 * environment is readable by its own user only (/proc/PID/environ), who can read Crawler.conf too.
 */
export const WORKER_ARGV_ENV = 'TARANTULA_WORKER_ARGV';

/**
 * `tarantula crawl CONF --frontier redis://… --workers N` (or `tarantula run PIPELINE …`): checks that
 * Redis answers and fixes the crawl's shards, starts N worker processes (this same program and
 * arguments, each told its slot; passwords out of their command lines), relays their stdout (a
 * pipeline's data) to `stdout` whole lines at a time, forwards SIGINT/SIGTERM
 * to all, logs a worker that dies and carries on with the others. When every worker has ended it sums their
 * stats, and when the crawl completed it merges their journals into one index. Run again after the
 * crawl completed, it begins the crawl's next round: a recrawl of the pages this machine's workers fetched. Exit status as SPEC §2: 130 /
 * 143 after a signal, 1 when a worker could not run (Redis lost) or every worker died, else 0.
 *
 * @example
 * await superviseWorkers(config, log, process.argv.slice(1), process.stdout) //=> 0
 */
export async function superviseWorkers(config: CrawlerConfig, log: CrawlLogger, argv: readonly string[], stdout: Writable): Promise<number> {
  // Held for the workers too (each runs under this lock), until the index is merged.
  return holdRepository(config.repository, log, () => supervise(config, log, argv, stdout));
}

async function supervise(config: CrawlerConfig, log: CrawlLogger, argv: readonly string[], stdout: Writable): Promise<number> {
  const connection = await connectFrontier(config.frontier!);
  let round: number;
  let shards: number;
  try {
    // Run again after the crawl completed, the command recrawls it: a new round, begun once for every machine.
    round = await beginRound(connection.redis, crawlIdOf(config));
    shards = (await openCrawlShards(connection, roundCrawlId(crawlIdOf(config), round))).prefixes.length;
  } catch (err) {
    throw exitWith(EXIT.cannotRun, `cannot begin the crawl's round at the Redis frontier at ${withoutPassword(config.frontier!)}: ${(err as Error).message}`);
  } finally {
    connection.redis.disconnect();
  }
  const recrawl = await foldCompletedRound(config.repository, round);
  // The workers share the mirror: no worker may clear temporary files while another writes them.
  await rm(join(resolve(config.repository), MIRROR_TEMP_DIR), { recursive: true, force: true });
  let signalled: number | undefined;
  const children: ChildProcess[] = [];
  const forward = (signal: NodeJS.Signals, code: number) => () => {
    signalled ??= code;
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const onSigint = forward('SIGINT', EXIT.sigint);
  const onSigterm = forward('SIGTERM', EXIT.sigterm);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  log.info({ frontier: config.frontier, crawlId: crawlIdOf(config), round, ...(recrawl ? { recrawl } : {}), shards, masters: connection.masters, workers: config.workers }, 'starting workers');
  const relay = relayLines(stdout);
  const [program, ...args] = argv;
  const ends = Array.from({ length: config.workers }, (_, slot) => {
    const child = spawn(process.execPath, [...process.execArgv, program!, ...args.map(passwordsHidden)], {
      env: { ...process.env, [WORKER_SLOT_ENV]: String(slot), [WORKER_ARGV_ENV]: JSON.stringify(args) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    relay.add(child.stdout!);
    log.info({ worker: slot, pid: child.pid }, 'worker started');
    return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      // 'close': its stdout is read to the end as well.
      child.on('close', (code, signal) => {
        if (code !== 0 && signalled === undefined) log.error({ worker: slot, pid: child.pid, code, signal }, 'a worker died; the others carry on, and its hosts come back when its leases run out');
        relay.end(child.stdout!, code === 0);
        done({ code, signal });
      }),
    );
  });
  const results = await Promise.all(ends);
  process.off('SIGINT', onSigint);
  process.off('SIGTERM', onSigterm);
  // Whatever the way out, stats.json sums what the workers did (as a crawl in one process writes it).
  const stats = await sumWorkerStats(config.repository);
  if (signalled !== undefined) return signalled;
  if (results.some((r) => r.code === EXIT.cannotRun)) return EXIT.cannotRun;
  if (!results.some((r) => r.code === EXIT.ok)) {
    log.error('every worker died; run the same command again to resume the crawl');
    return EXIT.cannotRun;
  }
  const documents = await mergeIndexParts(config, relay.closed ? undefined : stdout);
  log.info({ documents, workers: config.workers, stats }, 'workers finished; index merged');
  return EXIT.ok;
}

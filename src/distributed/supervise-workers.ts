import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { CrawlerConfig } from '../model/config.js';
import type { IndexRecord } from '../model/index-record.js';
import { EXIT, exitWith } from '../app/exit-status.js';
import { holdRepository } from '../app/hold-repository.js';
import type { RunState } from '../app/live-crawl.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { MIRROR_TEMP_DIR } from '../store/mirror-store.js';
import { clearVerbs, crawlState, postSeeds, postVerb, type CrawlVerb } from './crawl-control.js';
import { beginRound, dropOldRounds, roundCrawlId } from './crawl-round.js';
import { foldCompletedRound, mergeIndexParts, sumWorkerStats } from './merge-worker-parts.js';
import { passwordsHidden, withoutPassword } from '../config/without-password.js';
import { connectFrontier, type FrontierConnection } from './connect-frontier.js';
import { openCrawlShards } from './crawl-shards.js';
import { crawlIdOf } from './redis-frontier-url.js';
import { hostKey } from '../url/url-parts.js';
import { withoutSessionIds } from '../url/query-params.js';
import { RecrawlVisits } from './recrawl-visits.js';
import { relayLines } from './relay-lines.js';
import { WORKER_ARGV_ENV, WORKER_SLOT_ENV } from './worker-env.js';

/** What the server of a shared crawl's command (`--serve`) reads and steers: the verbs act on the whole crawl, through Redis. */
export interface SharedCrawl {
  readonly config: CrawlerConfig;
  readonly log: CrawlLogger;
  /** The URL of each running worker's own server (loopback, a port of its own), by slot. */
  readonly workers: ReadonlyMap<number, string>;
  state(): Promise<RunState>;
  verb(verb: CrawlVerb): Promise<void>;
  /** Seeds for every worker of the crawl, on every machine. */
  addSeeds(urls: readonly string[]): Promise<void>;
}

/** Starts serving a shared crawl; resolves once it listens, to the function that closes it. */
export type ServeShared = (crawl: SharedCrawl) => Promise<() => Promise<void>>;

/**
 * `tarantula crawl CONF --frontier redis://… --workers N` (or `tarantula run PIPELINE …`): checks that
 * Redis answers and fixes the crawl's shards, starts N worker processes (this same program and
 * arguments, each told its slot; passwords out of their command lines), relays their stdout (a
 * pipeline's data) to `stdout` whole lines at a time, forwards SIGINT/SIGTERM
 * to all, logs a worker that dies and carries on with the others. When every worker has ended it sums their
 * stats, and when the crawl completed it merges their journals into one index. Run again after the
 * crawl completed, it begins the crawl's next round: a recrawl of the pages this machine's workers fetched. Exit status as SPEC §2: 130 /
 * 143 after a signal, 1 when a worker could not run (Redis lost) or every worker died, else 0.
 * With `serve` (`--serve`), it serves the crawl while its workers run, each worker serving its own
 * figures on loopback (its URL told over IPC); a POST /stop ends it as SIGTERM does (143).
 *
 * @example
 * await superviseWorkers(config, log, process.argv.slice(1), process.stdout) //=> 0
 */
export async function superviseWorkers(config: CrawlerConfig, log: CrawlLogger, argv: readonly string[], stdout: Writable, serve?: ServeShared): Promise<number> {
  // Held for the workers too (each runs under this lock), until the index is merged.
  return holdRepository(config.repository, log, () => connected(config, log, argv, stdout, serve));
}

async function connected(config: CrawlerConfig, log: CrawlLogger, argv: readonly string[], stdout: Writable, serve?: ServeShared): Promise<number> {
  const connection = await connectFrontier(config.frontier!);
  try {
    return await supervise(config, log, argv, stdout, connection, serve);
  } finally {
    connection.redis.disconnect();
  }
}

async function supervise(config: CrawlerConfig, log: CrawlLogger, argv: readonly string[], stdout: Writable, connection: FrontierConnection, serve?: ServeShared): Promise<number> {
  const { redis } = connection;
  const crawlId = crawlIdOf(config);
  let round: number;
  let shards: number;
  let visits: RecrawlVisits | undefined;
  try {
    // Run again after the crawl completed, the command recrawls it: a new round, begun once for every machine.
    round = await beginRound(redis, crawlId);
    shards = (await openCrawlShards(connection, roundCrawlId(crawlId, round))).prefixes.length;
    // A recrawl reads the crawl's schedule, kept in the shards of its first round.
    if (round > 1) visits = new RecrawlVisits(redis, await openCrawlShards(connection, crawlId), withoutSessionIds);
    // A run after a POST /stop (or a pause) starts running.
    await clearVerbs(redis, crawlId);
  } catch (err) {
    throw exitWith(EXIT.cannotRun, `cannot begin the crawl's round at the Redis frontier at ${withoutPassword(config.frontier!)}: ${(err as Error).message}`);
  }
  // What no round reads any more goes; a Redis that fails here still serves the round.
  if (round > 1) await dropOldRounds(connection, crawlId, round).catch((err: unknown) => log.warn({ err }, 'cannot unlink the keys of the earlier rounds; the next round tries again'));
  const lastVisits = visits && ((records: readonly IndexRecord[]) =>
    visits.read(records.map((r) => ({ url: r.url, host: hostKey(r.url) }))).catch((err: unknown) => {
      throw exitWith(EXIT.cannotRun, `cannot read the crawl's recrawl schedule at the Redis frontier at ${withoutPassword(config.frontier!)}: ${(err as Error).message}`);
    }));
  const recrawl = await foldCompletedRound(config.repository, round, lastVisits);
  const workers = new Map<number, string>();
  const closeServer = await serve?.({
    config, log, workers,
    state: () => crawlState(redis, crawlId),
    verb: (verb) => postVerb(redis, crawlId, verb),
    addSeeds: (urls) => postSeeds(redis, crawlId, urls),
  });
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
  log.info({ frontier: config.frontier, crawlId, round, ...(recrawl ? { recrawl } : {}), shards, masters: connection.masters, workers: config.workers }, 'starting workers');
  const relay = relayLines(stdout);
  const [program, ...args] = argv;
  const ends = Array.from({ length: config.workers }, (_, slot) => {
    const child = spawn(process.execPath, [...process.execArgv, program!, ...args.map(passwordsHidden)], {
      env: { ...process.env, [WORKER_SLOT_ENV]: String(slot), [WORKER_ARGV_ENV]: JSON.stringify(args) },
      // With --serve, a worker tells the URL of its own server over IPC.
      stdio: serve ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'],
    });
    child.on('message', (message: { serving?: unknown }) => {
      if (typeof message.serving === 'string') workers.set(slot, message.serving);
    });
    children.push(child);
    relay.add(child.stdout!);
    log.info({ worker: slot, pid: child.pid }, 'worker started');
    return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      // 'close': its stdout is read to the end as well.
      child.on('close', (code, signal) => {
        workers.delete(slot);
        // 143 without a signal here: the crawl's POST /stop (a worker stops as on SIGTERM).
        if (code !== 0 && code !== EXIT.sigterm && signalled === undefined) log.error({ worker: slot, pid: child.pid, code, signal }, 'a worker died; the others carry on, and its hosts come back when its leases run out');
        relay.end(child.stdout!, code === 0);
        done({ code, signal });
      }),
    );
  });
  const results = await Promise.all(ends);
  process.off('SIGINT', onSigint);
  process.off('SIGTERM', onSigterm);
  // Stopped by a POST /stop (to any machine's command): every worker stopped as on SIGTERM.
  const stopped = (await crawlState(redis, crawlId).catch(() => 'running')) === 'stopping';
  await closeServer?.().catch((err: unknown) => log.error({ err }, 'cannot close the server of --serve'));
  // Whatever the way out, stats.json sums what the workers did (as a crawl in one process writes it).
  const stats = await sumWorkerStats(config.repository);
  if (signalled !== undefined) return signalled;
  if (stopped) return EXIT.sigterm;
  if (results.some((r) => r.code === EXIT.cannotRun)) return EXIT.cannotRun;
  if (!results.some((r) => r.code === EXIT.ok)) {
    log.error('every worker died; run the same command again to resume the crawl');
    return EXIT.cannotRun;
  }
  const documents = await mergeIndexParts(config, relay.closed ? undefined : stdout);
  log.info({ documents, workers: config.workers, stats }, 'workers finished; index merged');
  return EXIT.ok;
}

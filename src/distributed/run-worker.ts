import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { Subject } from 'rxjs';
import type { CrawlerConfig } from '../model/config.js';
import type { ServeCrawl } from '../app/live-crawl.js';
import { commandLine, runCrawl } from '../app/run-crawl.js';
import { defaultPipeline } from '../engine/default-pipeline.js';
import type { Pipeline } from '../engine/pipeline.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { withoutSessionIds } from '../url/query-params.js';
import { EXIT, exitWith } from '../app/exit-status.js';
import { withoutPassword } from '../config/without-password.js';
import { connectFrontier } from './connect-frontier.js';
import { followVerbs } from './crawl-control.js';
import { completeRound, currentRound, roundCrawlId } from './crawl-round.js';
import { openCrawlShards } from './crawl-shards.js';
import { crawlIdOf, previousRound, workerDir } from './redis-frontier-url.js';
import { RecrawlVisits } from './recrawl-visits.js';
import { SharedFrontier } from './shared-frontier.js';
import { sharedRobotsFetch } from './shared-robots.js';

/**
 * One worker process of a shared crawl (SPEC §8): the default crawl (or `pipeline`, a pipeline file's,
 * unchanged: only its frontier is another), with the frontier, the seen-set,
 * the page counter and the host counts in Redis, and its journal, index part and stats in its own
 * folder. Its name in Redis is this machine's name, the repository and its slot: two commands on one
 * machine crawling into two repositories are distinct workers, and a restarted worker takes back at
 * once what it held when it stopped. It works the crawl's current round (SPEC §5: a round after the
 * first is a recrawl of what this machine's workers fetched in the last completed one), and says in
 * Redis that the round completed when its crawl ran to its end. It follows the crawl's verbs (pause,
 * resume, stop, seeds: SPEC §12) whatever machine's server got them; with `serve`, it serves its own
 * figures too, and tells its supervisor where over IPC.
 *
 * @example
 * await runWorker(config, log, 0) //=> 0 once the shared crawl has nothing queued, leased or in flight
 */
export async function runWorker(shared: CrawlerConfig, log: CrawlLogger, slot: number, pipeline: Pipeline = defaultPipeline, serve?: ServeCrawl): Promise<number> {
  // Each worker archives into WARC files of its own: PATH-SLOT-00000.warc.gz, …
  const config = shared.warcFile === undefined ? shared : { ...shared, warcFile: `${shared.warcFile.replace(/\.warc\.gz$/, '')}-${slot}` };
  const connection = await connectFrontier(config.frontier!);
  const { redis } = connection;
  const failure = new Subject<Error>();
  const crawlId = crawlIdOf(config);
  let frontierOfWorker: SharedFrontier | undefined;
  try {
    const round = await currentRound(redis, crawlId);
    // A round's keys are its own; robots.txt answers and the recrawl schedule are the crawl's, kept across rounds.
    const [shards, crawlWide] = await Promise.all([openCrawlShards(connection, roundCrawlId(crawlId, round)), openCrawlShards(connection, crawlId)]).catch((err: unknown) => {
      throw exitWith(EXIT.cannotRun, `cannot read the crawl's shards at the Redis frontier at ${withoutPassword(config.frontier)}: ${(err as Error).message}`);
    });
    const visits = new RecrawlVisits(redis, crawlWide, withoutSessionIds);
    const { exitCode, completed } = await runCrawl(config, log, {
      ...commandLine(),
      serve: async (live) => {
        const unfollow = followVerbs(redis, crawlId, live, log);
        const close = await serve?.(live, (url) => process.send?.({ serving: url })).catch((err: unknown) => {
          unfollow();
          throw err;
        });
        return async () => {
          unfollow();
          await close?.();
        };
      },
      worker: {
        dir: workerDir(config.repository, slot),
        // The supervisor that spawned this process holds the repository for all its workers.
        supervisor: process.ppid,
        previous: previousRound(config.repository),
        frontier: (politeness, journal) =>
          (frontierOfWorker = new SharedFrontier({
            redis,
            shards,
            worker: `${hostname()}:${resolve(config.repository)}#${slot}`,
            order: config.traversal,
            maxPerHost: config.maxPerHost,
            levels: config.priorityLevels,
            politeness,
            requestsInFlight: config.requestsInFlight,
            leaseMs: config.leaseMs,
            maxPagesPerHost: config.maxPagesPerHost,
            maxPages: config.maxPageNumber,
            reapDelayMs: config.minDelayMs,
            canonical: withoutSessionIds,
            durable: () => journal.flush(),
            visits,
            loadVisits: round > 1,
            onError: (err) => failure.next(err),
          })),
        pipeline,
        visitOf: (url) => visits.visitOf(url),
        robotsFetch: (fetch) => sharedRobotsFetch(redis, crawlWide, config.robotsTtlMs, fetch),
        failure,
        close: async () => {
          await frontierOfWorker?.close();
          log.info({ syncs: frontierOfWorker?.syncs, roundTrips: frontierOfWorker?.roundTrips, leases: frontierOfWorker?.leases }, 'worker done with the shared frontier');
        },
      },
    });
    if (completed) await completeRound(redis, crawlId, round);
    return exitCode;
  } finally {
    redis.disconnect();
  }
}

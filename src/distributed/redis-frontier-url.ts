import { basename, join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import type { CrawlerConfig } from '../model/config.js';
import { EXIT, exitWith } from '../app/exit-status.js';
import { STATE_DIR } from '../state/crawl-state.js';

/**
 * Connects to the Redis of a shared frontier. Unreachable is an error naming the URL (exit 1); once
 * connected, a lost connection is not retried: every command then fails and the worker stops.
 *
 * @example
 * const redis = await connectFrontier('redis://127.0.0.1:6379/0');
 */
export async function connectFrontier(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5000 });
  // Failures surface through the commands that meet them.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw exitWith(EXIT.cannotRun, `cannot reach the Redis frontier at ${url}: ${(err as Error).message}`);
  }
  return redis;
}

/** The crawl's name in Redis: crawl-id, else the repository folder's name with what a key name cannot hold made `_`. */
export function crawlIdOf(config: CrawlerConfig): string {
  return config.crawlId ?? basename(resolve(config.repository)).replace(/[^A-Za-z0-9._-]/g, '_');
}

/** The folder of this machine's workers: one folder per slot, and what they share (the last completed round's journal). */
export function workersDir(repository: string): string {
  return join(resolve(repository), STATE_DIR, 'workers');
}

/** The folder of worker SLOT of this machine: its journal, index part and stats. */
export function workerDir(repository: string, slot: number): string {
  return join(workersDir(repository), String(slot));
}

/** The journal of the last round this machine's workers completed, folded from theirs: a recrawl revalidates its pages. */
export function previousRound(repository: string): string {
  return join(workersDir(repository), 'previous.jsonl');
}

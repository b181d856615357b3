import { basename, join, resolve } from 'node:path';
import type { CrawlerConfig } from '../model/config.js';
import { STATE_DIR } from '../state/crawl-state.js';

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

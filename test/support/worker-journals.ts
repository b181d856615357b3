import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { workerSlots } from '../../src/distributed/merge-worker-parts.js';
import { workerDir } from '../../src/distributed/redis-frontier-url.js';
import { STATE_DIR } from '../../src/state/crawl-state.js';

/** The URLs each worker of a shared crawl fetched, as its journal in `REPOSITORY/.tarantula/workers/N` says, by slot. */
export async function fetchedByWorker(repository: string): Promise<string[][]> {
  const parts: string[][] = [];
  for (const slot of await workerSlots(repository)) {
    const lines = (await readFile(join(workerDir(repository, slot), STATE_DIR, 'journal.jsonl'), 'utf8')).split('\n').filter((l) => l.startsWith('["d"'));
    parts.push(lines.map((l) => (JSON.parse(l) as [string, string])[1]));
  }
  return parts;
}

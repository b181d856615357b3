import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The URLs each worker of a shared crawl fetched, as its journal in `REPOSITORY/.tarantula/workers/N` says, by slot. */
export async function fetchedByWorker(repository: string): Promise<string[][]> {
  const dir = join(repository, '.tarantula', 'workers');
  const parts: string[][] = [];
  for (const slot of (await readdir(dir)).sort()) {
    const lines = (await readFile(join(dir, slot, '.tarantula', 'journal.jsonl'), 'utf8')).split('\n').filter((l) => l.startsWith('["d"'));
    parts.push(lines.map((l) => (JSON.parse(l) as [string, string])[1]));
  }
  return parts;
}

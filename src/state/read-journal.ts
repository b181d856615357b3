import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseEvent, type JournalEvent } from './journal-events.js';

/**
 * Streams the events of a journal file, skipping torn lines; nothing when the file does not exist.
 * `bytes`: only the file's first bytes (the journal as a run found it, before its own appends).
 *
 * @example
 * for await (const e of readJournal('repo/.tarantula/journal.jsonl')) if (e[0] === 'd') count++;
 */
export async function* readJournal(path: string, bytes?: number): AsyncGenerator<JournalEvent> {
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20, ...(bytes !== undefined ? { end: bytes - 1 } : {}) });
  const opened = await new Promise<boolean>((resolve, reject) => {
    input.once('ready', () => resolve(true));
    input.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(false) : reject(err)));
  });
  if (!opened) return;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    const event = parseEvent(line);
    if (event !== undefined) yield event;
  }
}

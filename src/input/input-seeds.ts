import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Observable } from 'rxjs';
import { ConfigError } from '../config/config-error.js';
import type { Candidate } from '../model/crawl-request.js';
import { LineReader } from '../output/line-reader.js';
import { seedLine } from './seed-line.js';

/** An input file, opened: its name for messages (`stdin` for `-`) and its bytes. */
export interface SeedInput {
  readonly name: string;
  readonly stream: Readable;
}

/** How often a paused input looks again whether the frontier has room. */
const ROOM_POLL_MS = 20;

/**
 * Opens the input files of `-i FILE` (`-` is `stdin`) before anything is crawled, so that a missing
 * or unreadable file stops the crawl before its first request. Nothing is read yet.
 *
 * @throws {ConfigError} `conf-read` naming the file (exit status 2).
 * @example
 * await openSeedInputs(['urls.txt', '-'], process.stdin) //=> [{ name: 'urls.txt', stream }, { name: 'stdin', stream: process.stdin }]
 */
export async function openSeedInputs(files: readonly string[], stdin: Readable): Promise<SeedInput[]> {
  const inputs: SeedInput[] = [];
  try {
    for (const file of files) {
      if (file === '-') {
        inputs.push({ name: 'stdin', stream: stdin });
        continue;
      }
      const handle = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
        throw new ConfigError('conf-read', file, `cannot read the input file: ${err.message}`);
      });
      if ((await handle.stat()).isDirectory()) {
        await handle.close();
        throw new ConfigError('conf-read', file, 'cannot read the input file: it is a directory');
      }
      inputs.push({ name: file, stream: handle.createReadStream() });
    }
  } catch (err) {
    for (const input of inputs) if (input.stream !== stdin) input.stream.destroy();
    throw err;
  }
  return inputs;
}

/** How {@link inputSeeds} paces its reading and where each seed goes. */
export interface InputSeedOptions {
  /** Whether the frontier has room for more seeds: while it has none, no more input is read. */
  readonly room: () => boolean;
  /** Called with each seed before it is emitted (the crawl widens its scope by it). */
  readonly seed: (url: string) => void;
  /** A line refused (`FILE:LINE: why; skipped`) or a file that failed while it was read. */
  readonly warn: (message: string) => void;
}

/**
 * The seeds of input files, one after the other, as they arrive: stdin may stay open for as long
 * as its writer likes (`tail -f urls.txt | tarantula crawl -i -`), and the crawl waits for it.
 * Memory stays bounded however long the input: while the frontier has no room, the next chunk is
 * not read (the pipe or the file holds the rest). Every line of a chunk that was read is emitted at
 * once, so a stop never loses a line taken from a pipe: it is admitted (and journaled) or refused.
 * A bad line is a warning naming its file and line; a file that fails midway is a warning, and
 * the next file is read.
 *
 * @example
 * inputSeeds(await openSeedInputs(['-'], process.stdin), { room, seed: widenScope, warn })
 * //=> { href: 'http://a.test/', depth: 0, seed: true }, … then complete when stdin closes
 */
export function inputSeeds(inputs: readonly SeedInput[], opts: InputSeedOptions): Observable<Candidate> {
  return new Observable<Candidate>((subscriber) => {
    let closed = false;
    async function* paced(stream: Readable): AsyncGenerator<Buffer | string> {
      for await (const chunk of stream) {
        yield chunk as Buffer | string;
        while (!closed && !opts.room()) await sleep(ROOM_POLL_MS);
      }
    }
    void (async () => {
      for (const input of inputs) {
        // With --watch, every crawl opens the inputs again: stdin is the first crawl's only.
        if (input.stream.destroyed || input.stream.readableEnded) continue;
        const lines = new LineReader(paced(input.stream));
        try {
          for await (const line of lines) {
            if (closed) return;
            const seed = seedLine(line);
            if (seed === undefined) continue;
            if ('refused' in seed) {
              opts.warn(`${input.name}:${lines.lineNumber}: ${seed.refused}; skipped`);
              continue;
            }
            opts.seed(seed.url);
            subscriber.next({ href: seed.url, depth: 0, seed: true });
          }
        } catch (err) {
          if (closed) return;
          opts.warn(`${input.name}: cannot read the input file after line ${lines.lineNumber}: ${(err as Error).message}; the rest of it is skipped`);
        }
      }
      subscriber.complete();
    })();
    return () => {
      closed = true;
      // A crawl that ended (a limit, a signal) reads no more: a stream waiting for data, and the
      // files not reached yet, are let go.
      for (const input of inputs) input.stream.destroy();
    };
  });
}

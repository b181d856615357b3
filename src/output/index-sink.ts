import { type FileHandle, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';

/** Where an {@link IndexWriter} puts its text: a file or a stream. */
export interface IndexSink {
  /** Writes `text` whole; resolves when the sink can take more. */
  write(text: string): Promise<void>;
  /**
   * Resolves once everything written has reached the OS (files: fsync). In atomic mode `commit`
   * renames `FILE.tmp` over FILE; without it `FILE.tmp` stays for an interrupted crawl to continue.
   */
  finish(commit: boolean): Promise<void>;
  /** Gives up after a failure, keeping what the file held before (atomic mode renames nothing). */
  abort(): Promise<void>;
}

/**
 * How a file is opened: `truncate` starts it anew; `append` continues it (resume), first cutting a
 * last record that a crash left without its newline; `atomic` writes `FILE.tmp` and renames it over
 * FILE at the end (recrawl), so FILE is always the old index or the complete new one.
 */
export type IndexFileMode = 'truncate' | 'append' | 'atomic';

/** A file sink; `empty` tells whether the file holds nothing yet (so needs a header). */
export async function openFileSink(path: string, mode: IndexFileMode): Promise<{ sink: IndexSink; empty: boolean }> {
  const size = mode === 'append' ? await trimTornTail(path) : 0;
  const written = mode === 'atomic' ? `${path}.tmp` : path;
  const fh = await open(written, mode === 'append' ? 'a' : 'w');
  return { sink: fileSink(fh, written === path ? undefined : { from: written, to: path }), empty: size === 0 };
}

function fileSink(fh: FileHandle, move: { from: string; to: string } | undefined): IndexSink {
  return {
    async write(text) {
      const bytes = Buffer.from(text, 'utf8');
      for (let done = 0; done < bytes.length; ) done += (await fh.write(bytes, done)).bytesWritten;
    },
    async finish(commit) {
      await fh.sync();
      await fh.close();
      if (move === undefined || !commit) return;
      await rename(move.from, move.to);
      await syncDir(dirname(move.to));
    },
    async abort() {
      await fh.close().catch(() => undefined);
    },
  };
}

/** Makes a rename durable; not every platform can open a folder (Windows), hence best effort. */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r').catch(() => undefined);
  try {
    await fh?.sync();
  } catch {
    // the rename is done; only its durability across a power cut is not confirmed
  } finally {
    await fh?.close();
  }
}

/** Cuts the file after its last newline, dropping a half-written last record; returns the new size. */
async function trimTornTail(path: string): Promise<number> {
  const fh = await open(path, 'r+').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (fh === undefined) return 0;
  try {
    const { size } = await fh.stat();
    const buffer = Buffer.alloc(Math.min(size, 64 * 1024));
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - buffer.length);
      const { bytesRead } = await fh.read(buffer, 0, end - start, start);
      const nl = buffer.subarray(0, bytesRead).lastIndexOf(10);
      if (nl !== -1) {
        end = start + nl + 1;
        break;
      }
      end = start;
    }
    if (end < size) await fh.truncate(end);
    return end;
  } finally {
    await fh.close();
  }
}

/**
 * A stream sink (stdout, a socket, any Writable): waits for 'drain' when the stream says so, and
 * {@link IndexSink.finish} waits until the last write is flushed. The stream is not ended: stdout
 * cannot be, and a caller's stream is the caller's to end. Errors are also emitted as 'error'
 * events, which the writer listens to.
 */
export function streamSink(stream: Writable): IndexSink {
  let last: Promise<Error | null | undefined> = Promise.resolve(undefined);
  return {
    async write(text) {
      let flushed!: (err: Error | null | undefined) => void;
      last = new Promise((resolve) => (flushed = resolve));
      if (stream.destroyed) {
        const err = streamGone();
        flushed(err);
        throw err;
      }
      if (!stream.write(text, flushed)) await drained(stream);
    },
    async finish() {
      const err = await last;
      if (err) throw err;
    },
    async abort() {},
  };
}

const streamGone = (): Error => Object.assign(new Error('the output stream is closed'), { code: 'ERR_STREAM_DESTROYED' });

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error): void => {
      stream.off('drain', onDrain).off('error', settle).off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = (): void => settle();
    const onClose = (): void => settle(streamGone());
    stream.on('drain', onDrain).on('error', settle).on('close', onClose);
  });
}

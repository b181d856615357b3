import type { Readable, Writable } from 'node:stream';

/** What {@link relayLines} gives its caller: where each worker's data goes in, and whether the reader left. */
export interface LineRelay {
  /** Relays `source` (a worker's stdout) until it ends. */
  add(source: Readable): void;
  /**
   * `source` is over, its process gone: writes what it left after its last newline when it exited
   * cleanly (`whole`), drops it when it was killed (a torn record).
   */
  end(source: Readable, whole: boolean): void;
  /** The reader of `out` went away (EPIPE): the sources were closed, so each worker meets the broken pipe itself. */
  readonly closed: boolean;
}

const NEWLINE = 0x0a;

/**
 * Relays the stdout of several worker processes into one: whole lines at a time (a record of the
 * line formats, or a pipeline's line), so that two workers' records never interleave mid-line.
 * A full `out` pauses every source (each worker then waits on its own pipe, as it would on a
 * terminal's); a reader that goes away (`| head -1`) closes every source, so that each worker
 * stops as it would on a broken pipe of its own, its crawl resumable.
 *
 * @example
 * const relay = relayLines(process.stdout);
 * relay.add(child.stdout); child.on('close', (code) => relay.end(child.stdout, code === 0));
 */
export function relayLines(out: Writable): LineRelay {
  const sources = new Map<Readable, Buffer[]>();
  let closed = false;
  let waiting = false;
  const write = (data: Buffer): void => {
    if (closed || data.length === 0) return;
    if (!out.write(data) && !waiting) {
      waiting = true;
      for (const s of sources.keys()) s.pause();
      out.once('drain', () => {
        waiting = false;
        for (const s of sources.keys()) s.resume();
      });
    }
  };
  out.on('error', () => {
    closed = true;
    for (const s of sources.keys()) s.destroy();
  });
  return {
    add(source) {
      const rest: Buffer[] = [];
      sources.set(source, rest);
      source.on('data', (chunk: Buffer) => {
        const cut = chunk.lastIndexOf(NEWLINE);
        if (cut < 0) {
          rest.push(chunk);
          return;
        }
        write(Buffer.concat([...rest.splice(0), chunk.subarray(0, cut + 1)]));
        if (cut + 1 < chunk.length) rest.push(chunk.subarray(cut + 1));
      });
      source.on('error', () => undefined);
      if (closed) source.destroy();
      else if (waiting) source.pause();
    },
    end(source, whole) {
      const rest = sources.get(source);
      sources.delete(source);
      if (rest !== undefined && whole) write(Buffer.concat(rest));
    },
    get closed() {
      return closed;
    },
  };
}

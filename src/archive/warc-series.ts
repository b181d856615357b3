import { closeSync, ftruncateSync, openSync, writevSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { makeDirectory } from '../store/make-directory.js';
import { NO_ROOM } from '../store/no-room.js';
import { parseCdxjLine, type CdxjSummary } from './cdxj.js';

export interface WarcSeriesOptions {
  /** PATH of `PATH-00000.warc.gz`, `PATH-00000.cdxj`, … */
  readonly base: string;
  /** A file takes no more exchanges once they would carry it past this many bytes (one larger exchange still fits in an empty file). 0 = no limit. */
  readonly maxSize: number;
  /** The gzip member of the warcinfo record that opens each file. */
  readonly warcinfo: (filename: string) => Promise<Buffer>;
  /** Told every line the CDXJ files already hold (a resume). */
  readonly known?: (line: CdxjSummary) => void;
}

/** The records of one fetch as gzip members, and its CDXJ lines. */
export interface Exchange {
  readonly members: readonly Buffer[];
  /** The CDXJ lines, given the file's name and where each member starts in it. */
  readonly lines: (filename: string, offsets: readonly number[]) => string;
}

const NAME = /^(.*)-(\d{5,})\.warc\.gz$/;

/**
 * The WARC files of a crawl and the CDXJ beside each, written append-only in one queue. The
 * exchanges of one turn of the event loop go out together, in one synchronous write per file:
 * measured, a write through the thread pool cost the main thread 160–200 µs in the crawl (the
 * hand-off, and the woken thread taking the core), more than the page-cache copy it spares it
 * (`npm run bench -- --pages 20000 --warc`: 638–645 against 603 pages/s, 2.4–2.9 s less CPU). An exchange's
 * members go to the WARC first and its CDXJ lines after, so every complete CDXJ line points at whole
 * members: when a crawl is killed, reopening cuts the last WARC back to where its last complete
 * CDXJ line ends (a torn member, or an exchange whose line never came) and the CDXJ to its last
 * newline. An exchange cut off this way had not been reported done, so the crawl's journal has it
 * pending and it is fetched again.
 *
 * @example
 * const series = await WarcSeries.open({ base: 'crawl', maxSize: 1e9, warcinfo });
 * await series.append({ members: [request, response], lines: (file, [, at]) => cdxjLine({ ..., offset: at, filename: file }) });
 * await series.close();
 */
export class WarcSeries {
  /** Exchanges waiting for the write under way to end: they go out together in the next one. */
  private queue: { exchange: Exchange; done: () => void; fail: (err: Error) => void }[] = [];
  private writing: Promise<void> | undefined;
  private failure: Error | undefined;
  private failedWith!: (err: Error) => void;
  /** Settles with the first write that failed (a full disk): the series takes nothing after it. */
  readonly failed = new Promise<Error>((resolve) => (this.failedWith = resolve));

  private constructor(
    private readonly opts: WarcSeriesOptions,
    private index: number,
    /** The file descriptors of the current WARC and CDXJ. */
    private warc: number,
    private cdxj: number,
    private size: number,
    private cdxjSize: number,
    /** Bytes of the file's warcinfo: a file no bigger holds no exchange yet. */
    private headSize: number,
  ) {}

  static async open(opts: WarcSeriesOptions): Promise<WarcSeries> {
    const dir = dirname(opts.base);
    const prefix = basename(opts.base);
    await makeDirectory(dir);
    const numbers = (await readdir(dir))
      .map((name) => NAME.exec(name))
      .filter((m): m is RegExpExecArray => m !== null && m[1] === prefix)
      .map((m) => Number(m[2]))
      .sort((a, b) => a - b);
    for (const n of numbers.slice(0, -1)) await readLines(cdxjPath(opts.base, n), opts.known);
    const last = numbers.at(-1);
    if (last === undefined) return WarcSeries.create(opts, 0);
    const { end, bytes } = await readLines(cdxjPath(opts.base, last), opts.known);
    if (end === 0) return WarcSeries.create(opts, last); // nothing but (maybe) its warcinfo: written again
    const file = warcPath(opts.base, last);
    const size = (await stat(file)).size;
    if (size < end) throw new Error(`${file} is ${size} bytes, but ${cdxjPath(opts.base, last)} lists a record ending at byte ${end}: the two do not belong together`);
    const warc = openSync(file, 'r+');
    const cdxj = openSync(cdxjPath(opts.base, last), 'r+');
    ftruncateSync(warc, end);
    ftruncateSync(cdxj, bytes);
    return new WarcSeries(opts, last, warc, cdxj, end, bytes, 0);
  }

  private static async create(opts: WarcSeriesOptions, index: number): Promise<WarcSeries> {
    const file = warcPath(opts.base, index);
    const head = await opts.warcinfo(basename(file));
    const warc = openSync(file, 'w');
    const cdxj = openSync(cdxjPath(opts.base, index), 'w');
    try {
      writeAll(warc, [head], 0, file);
    } catch (err) {
      closeSync(warc);
      closeSync(cdxj);
      throw err;
    }
    return new WarcSeries(opts, index, warc, cdxj, head.length, 0, head.length);
  }

  /** Appends one exchange; resolves once its members and lines are written, in the order appended. */
  append(exchange: Exchange): Promise<void> {
    return new Promise((done, fail) => {
      this.queue.push({ exchange, done, fail });
      this.writing ??= this.drain();
    });
  }

  /** Waits for every append, then closes the files. */
  async close(): Promise<void> {
    await this.writing;
    closeSync(this.warc);
    closeSync(this.cdxj);
  }

  private async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        if (this.failure) throw this.failure;
        await this.write(batch.map((b) => b.exchange));
        for (const b of batch) b.done();
      } catch (err) {
        // What is on disk now is unknown: no later record may be written after it.
        if (this.failure === undefined) {
          this.failure = Object.assign(new Error(`cannot write the WARC: ${(err as Error).message}`), { code: NO_ROOM });
          this.failedWith(this.failure);
        }
        for (const b of batch) b.fail(this.failure);
      }
    }
    this.writing = undefined;
  }

  /** Writes exchanges to the current file, starting the next file where one would pass the size limit. */
  private async write(exchanges: readonly Exchange[]): Promise<void> {
    let members: Buffer[] = [];
    let lines = '';
    let at = this.size;
    for (const { members: records, lines: lineOf } of exchanges) {
      const total = records.reduce((n, m) => n + m.length, 0);
      if (this.opts.maxSize > 0 && at > this.headSize && at + total > this.opts.maxSize) {
        this.flush(members, lines, at);
        await this.roll();
        [members, lines, at] = [[], '', this.size];
      }
      const offsets: number[] = [];
      for (const m of records) {
        offsets.push(at);
        members.push(m);
        at += m.length;
      }
      lines += lineOf(basename(warcPath(this.opts.base, this.index)), offsets);
    }
    this.flush(members, lines, at);
  }

  /** The WARC bytes first, then the CDXJ lines that point at them. */
  private flush(members: Buffer[], lines: string, end: number): void {
    if (members.length === 0) return;
    writeAll(this.warc, members, this.size, warcPath(this.opts.base, this.index));
    this.size = end;
    const text = Buffer.from(lines);
    writeAll(this.cdxj, [text], this.cdxjSize, cdxjPath(this.opts.base, this.index));
    this.cdxjSize += text.length;
  }

  /** Starts the next file; the current one is closed only once that has its warcinfo, so that a failure leaves one pair of files open. */
  private async roll(): Promise<void> {
    const next = await WarcSeries.create(this.opts, this.index + 1);
    closeSync(this.warc);
    closeSync(this.cdxj);
    ({ index: this.index, warc: this.warc, cdxj: this.cdxj, size: this.size, cdxjSize: this.cdxjSize, headSize: this.headSize } = next);
  }
}

/** Writes `buffers` at `position` of `file`; libuv writes them all or fails, so a short count is an error too. Errors name the file. */
function writeAll(fd: number, buffers: readonly Buffer[], position: number, file: string): void {
  const size = buffers.reduce((n, b) => n + b.length, 0);
  let written: number;
  try {
    written = writevSync(fd, buffers, position);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  if (written !== size) throw new Error(`${file}: wrote ${written} of ${size} bytes`);
}

/** `PATH-00042.warc.gz`. */
export const warcPath = (base: string, index: number): string => `${base}-${String(index).padStart(5, '0')}.warc.gz`;
/** `PATH-00042.cdxj`. */
export const cdxjPath = (base: string, index: number): string => `${base}-${String(index).padStart(5, '0')}.cdxj`;

/** The complete lines of a CDXJ file: where the last one's member ends, and the bytes they take. */
async function readLines(file: string, known?: (line: CdxjSummary) => void): Promise<{ end: number; bytes: number }> {
  let text: Buffer;
  try {
    text = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { end: 0, bytes: 0 };
    throw err;
  }
  let end = 0;
  let bytes = 0;
  for (let start = 0, nl = text.indexOf(10); nl >= 0; start = nl + 1, nl = text.indexOf(10, start)) {
    const line = parseCdxjLine(text.toString('utf8', start, nl));
    if (line === undefined) break; // a line we did not write whole: what follows is not trusted either
    known?.(line);
    end = line.end;
    bytes = nl + 1;
  }
  return { end, bytes };
}

import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { LineReader } from '../output/line-reader.js';

/** One CDXJ file to merge, and the name its lines give their WARC file in the merged index. */
export interface CdxjSource {
  readonly path: string;
  /** Told a line's `filename` (the WARC's name beside the CDXJ), returns the name the merged line gives it. */
  readonly filename: (name: string) => string;
}

export interface SortCdxjOptions {
  /** A folder of its own for the sorted runs; made, and removed at the end. */
  readonly tempDir: string;
  /** Characters of lines a run holds in memory before it is sorted and written. Default 32 Mi. */
  readonly runChars?: number;
  /** Runs merged at once (open files); more runs are merged in passes. Default 64. */
  readonly fanIn?: number;
}

/** What {@link sortCdxj} wrote: the lines, and the lines it could not read (torn, or not CDXJ). */
export interface SortedCdxj {
  readonly lines: number;
  readonly skipped: number;
}

const LINE = /^(\S+ \d{14}) (\{.*\})$/;

/**
 * Writes one CDXJ index, sorted as `LC_ALL=C sort` sorts (UTF-8 byte order), of the lines of many
 * CDXJ files, each line's `filename` renamed on the way: an external merge sort, so memory holds one
 * run (`runChars`) while the runs are made and one line per run while they are merged, whatever the
 * crawl's size. A line that is not CDXJ (a torn last line) is skipped and counted.
 *
 * @example
 * await sortCdxj([{ path: 'a/crawl-00000.cdxj', filename: (f) => `archive/a/${f}` }], 'merged/index.cdxj', { tempDir: 'merged/.tarantula/runs' })
 * //=> { lines: 20000, skipped: 0 }
 */
export async function sortCdxj(sources: readonly CdxjSource[], out: string, opts: SortCdxjOptions): Promise<SortedCdxj> {
  const runChars = opts.runChars ?? 32 * 1024 * 1024;
  const fanIn = Math.max(2, opts.fanIn ?? 64);
  await mkdir(opts.tempDir, { recursive: true });
  try {
    let runs: string[] = [];
    let lines = 0;
    let skipped = 0;
    let run: string[] = [];
    let chars = 0;
    const spill = async (): Promise<void> => {
      if (run.length === 0) return;
      run.sort(byteOrder);
      const path = join(opts.tempDir, `run-${runs.length}`);
      await writeLines(path, run);
      runs.push(path);
      run = [];
      chars = 0;
    };
    for (const source of sources)
      for await (const text of new LineReader(createReadStream(source.path))) {
        const line = renamed(text, source.filename);
        if (line === undefined) {
          if (text !== '') skipped++;
          continue;
        }
        run.push(line);
        lines++;
        chars += line.length;
        if (chars >= runChars) await spill();
      }
    await spill();
    for (let pass = 0; runs.length > fanIn; pass++) {
      const next: string[] = [];
      for (let i = 0; i < runs.length; i += fanIn) {
        const path = join(opts.tempDir, `pass-${pass}-${next.length}`);
        await mergeRuns(runs.slice(i, i + fanIn), path);
        next.push(path);
      }
      runs = next;
    }
    await mergeRuns(runs, `${out}.tmp`);
    await rename(`${out}.tmp`, out);
    return { lines, skipped };
  } finally {
    await rm(opts.tempDir, { recursive: true, force: true });
  }
}

/** The line with its `filename` renamed; undefined when it is not a CDXJ line naming a file. */
function renamed(line: string, filename: (name: string) => string): string | undefined {
  const m = LINE.exec(line);
  if (m === null) return undefined;
  try {
    const json = JSON.parse(m[2]!) as Record<string, unknown>;
    if (typeof json.filename !== 'string') return undefined;
    json.filename = filename(json.filename);
    return `${m[1]} ${JSON.stringify(json)}`;
  } catch {
    return undefined;
  }
}

/** UTF-16 puts U+10000 and above (surrogates) before U+E000–U+FFFF; UTF-8 after: moved so that they compare as UTF-8 bytes do. */
const utf8Rank = (unit: number): number => (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000);

/**
 * Compares two strings as their UTF-8 bytes compare (the order of `LC_ALL=C sort`, and of pywb's
 * binary search), a prefix before what extends it.
 *
 * @example
 * ['b', 'a b', 'a'].sort(byteOrder) //=> ['a', 'a b', 'b']
 */
export function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? utf8Rank(x) - utf8Rank(y) : x - y;
  }
  return a.length - b.length;
}

async function writeLines(path: string, lines: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const file = createWriteStream(path);
  for await (const line of lines) if (!file.write(line + '\n')) await once(file, 'drain'); // rejects on the stream's error
  file.end();
  await finished(file);
}

/** Merges sorted runs into one sorted file, one line of each in memory (a binary heap of the runs' heads). */
async function mergeRuns(runs: readonly string[], out: string): Promise<void> {
  const readers = runs.map((path) => new LineReader(createReadStream(path))[Symbol.asyncIterator]());
  const heap: { line: string; reader: number }[] = [];
  const less = (i: number, j: number): boolean => byteOrder(heap[i]!.line, heap[j]!.line) < 0 || (heap[i]!.line === heap[j]!.line && heap[i]!.reader < heap[j]!.reader);
  const swap = (i: number, j: number): void => void ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const [reader, it] of readers.entries()) {
    const next = await it.next();
    if (!next.done) heap.push({ line: next.value, reader });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  async function* merged(): AsyncGenerator<string> {
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top.line;
      const next = await readers[top.reader]!.next();
      if (next.done) {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      } else top.line = next.value;
      if (heap.length > 0) down(0);
    }
  }
  try {
    await writeLines(out, merged());
  } finally {
    await Promise.all(readers.map((it) => it.return()));
  }
}

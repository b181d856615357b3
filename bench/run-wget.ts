/**
 * GNU wget on the same site, for a side-by-side figure: recursive, unlimited depth, no parent,
 * robots.txt obeyed (the crawler fetches it too), one connection with keep-alive, every file saved;
 * with `warcFile`, every exchange archived too (`--warc-file`, with a CDX index as the crawler writes
 * its CDXJ), as the crawler's `--warc` run does.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { timedRun, type TimedRun } from './timed-run.js';

export interface WgetRun extends TimedRun {
  /** Files saved (wget saves what it fetched with a 2xx, robots.txt included). */
  readonly files: number;
  readonly bytes: number;
  readonly command: string;
}

async function tally(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}

/**
 * @example
 * const run = await runWget('http://127.0.0.1:40123/', '/tmp/bench-1/wget'); run.files //=> 1064
 */
export async function runWget(url: string, dir: string, opts: { warcFile?: string } = {}): Promise<WgetRun> {
  const warc = opts.warcFile === undefined ? [] : [`--warc-file=${opts.warcFile}`, '--warc-cdx'];
  const wget = ['wget', '--recursive', '--level=inf', '--no-parent', '-e', 'robots=on', '--no-verbose', ...warc, `--directory-prefix=${dir}`, url];
  const run = await timedRun(wget, `${dir}.time.txt`, { stdio: 'ignore' });
  return { ...run, ...(await tally(dir)), command: wget.join(' ') };
}

/**
 * GNU wget on the same site, for a side-by-side figure: recursive, unlimited depth, no parent,
 * robots.txt obeyed (the crawler fetches it too), one connection with keep-alive, every file saved.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseTimeV, type TimeFigures } from './run-crawler.js';

const TIME = '/usr/bin/time';

export interface WgetRun {
  readonly exitCode: number | null;
  readonly wallSeconds: number;
  /** Files saved (wget saves what it fetched with a 2xx, robots.txt included). */
  readonly files: number;
  readonly bytes: number;
  readonly time: TimeFigures | undefined;
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
export async function runWget(url: string, dir: string): Promise<WgetRun> {
  const timeFile = `${dir}.time.txt`;
  const wget = ['wget', '--recursive', '--level=inf', '--no-parent', '-e', 'robots=on', '--no-verbose', `--directory-prefix=${dir}`, url];
  const useTime = existsSync(TIME);
  const argv = useTime ? [TIME, '-v', '-o', timeFile, ...wget] : wget;
  const t0 = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const wallSeconds = (performance.now() - t0) / 1000;
  const time = useTime ? parseTimeV(await readFile(timeFile, 'utf8')) : undefined;
  return { exitCode, wallSeconds, ...(await tally(dir)), time, command: wget.join(' ') };
}

/**
 * One benchmarked process — the crawler, wget or Crawlee — run under GNU time's `-v` report when
 * `/usr/bin/time` is there: its exit code, the wall seconds seen from here, and time's figures.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

const TIME = '/usr/bin/time';

export interface TimeFigures {
  readonly cpuSeconds: number;
  readonly userSeconds: number;
  readonly sysSeconds: number;
  readonly maxRssMb: number;
  readonly elapsedSeconds: number;
}

export interface TimedRun {
  readonly exitCode: number | null;
  readonly wallSeconds: number;
  readonly time: TimeFigures | undefined;
}

/** Parses the figures of GNU time's `-v` report. */
export function parseTimeV(text: string): TimeFigures {
  const field = (label: string): string => new RegExp(`${label}: (.+)`).exec(text)?.[1]?.trim() ?? 'NaN';
  const elapsed = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  const userSeconds = Number(field('User time \\(seconds\\)'));
  const sysSeconds = Number(field('System time \\(seconds\\)'));
  return {
    cpuSeconds: userSeconds + sysSeconds,
    userSeconds,
    sysSeconds,
    maxRssMb: Math.round(Number(field('Maximum resident set size \\(kbytes\\)')) / 1024),
    elapsedSeconds: elapsed.reduce((acc, v) => acc * 60 + v, 0),
  };
}

/**
 * Runs `command` with `options` (time's report goes to `timeFile`); `during` is given the child to
 * feed or read while it runs, and is awaited with it.
 *
 * @example
 * const run = await timedRun(['wget', '-r', url], '/tmp/w.time.txt', { stdio: 'ignore' });
 * run.time?.maxRssMb //=> 7
 */
export async function timedRun(
  command: readonly string[],
  timeFile: string,
  options: SpawnOptions,
  during?: (child: ChildProcess) => Promise<void> | void,
): Promise<TimedRun> {
  const useTime = existsSync(TIME);
  const argv = useTime ? [TIME, '-v', '-o', timeFile, ...command] : command;
  const t0 = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), options);
  const feeding = during?.(child);
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  await feeding;
  const wallSeconds = (performance.now() - t0) / 1000;
  return { exitCode, wallSeconds, time: useTime ? parseTimeV(await readFile(timeFile, 'utf8')) : undefined };
}

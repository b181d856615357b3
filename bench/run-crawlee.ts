/**
 * Crawlee on the same synthetic web, for a side-by-side figure: `crawlee-crawl.mjs` in a child
 * process of its own under `/usr/bin/time -v`, as the crawler and wget are run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseTimeV, type TimeFigures } from './run-crawler.js';

const TIME = '/usr/bin/time';
const SCRIPT = fileURLToPath(new URL('./crawlee-crawl.mjs', import.meta.url));

export interface CrawleeRun {
  readonly exitCode: number | null;
  readonly wallSeconds: number;
  readonly documents: number;
  readonly notFound: number;
  readonly failures: number;
  readonly time: TimeFigures | undefined;
  readonly command: string;
}

/**
 * @example
 * const run = await runCrawlee('/tmp/crawlee', 'http://bench.test:40123/', '/tmp/bench-crawlee', 16); run.documents //=> 20001
 */
export async function runCrawlee(crawleeDir: string, seed: string, work: string, threads: number): Promise<CrawleeRun> {
  const timeFile = `${work}.time.txt`;
  const command = [process.execPath, SCRIPT, '--crawlee', crawleeDir, '--seed', seed, '--work', work, '--threads', String(threads)];
  const useTime = existsSync(TIME);
  const argv = useTime ? [TIME, '-v', '-o', timeFile, ...command] : command;
  const t0 = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const wallSeconds = (performance.now() - t0) / 1000;
  const counts = JSON.parse(out.trim().split('\n').pop() || '{"documents":0,"notFound":0,"failures":0}') as Pick<CrawleeRun, 'documents' | 'notFound' | 'failures'>;
  const time = useTime ? parseTimeV(await readFile(timeFile, 'utf8')) : undefined;
  return { exitCode, wallSeconds, ...counts, time, command: command.join(' ') };
}

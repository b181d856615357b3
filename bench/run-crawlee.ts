/**
 * Crawlee on the same synthetic web, for a side-by-side figure: `crawlee-crawl.mjs` in a child
 * process of its own under `/usr/bin/time -v`, as the crawler and wget are run.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timedRun, type TimedRun } from './timed-run.js';

const SCRIPT = fileURLToPath(new URL('./crawlee-crawl.mjs', import.meta.url));

export interface CrawleeRun extends TimedRun {
  readonly documents: number;
  readonly notFound: number;
  readonly failures: number;
  readonly command: string;
}

/**
 * @example
 * const run = await runCrawlee('/tmp/crawlee', 'http://bench.test:40123/', '/tmp/bench-crawlee', 16); run.documents //=> 20001
 */
export async function runCrawlee(crawleeDir: string, seed: string, work: string, threads: number): Promise<CrawleeRun> {
  const command = [process.execPath, SCRIPT, '--crawlee', crawleeDir, '--seed', seed, '--work', work, '--threads', String(threads)];
  let out = '';
  const run = await timedRun(command, join(work, 'time.txt'), { stdio: ['ignore', 'pipe', 'inherit'] }, (child) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  });
  const counts = JSON.parse(out.trim().split('\n').pop() || '{"documents":0,"notFound":0,"failures":0}') as Pick<CrawleeRun, 'documents' | 'notFound' | 'failures'>;
  return { ...run, ...counts, command: command.join(' ') };
}

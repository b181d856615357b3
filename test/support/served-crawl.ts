import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './run-cli.js';
import { until } from './until.js';

/** A `tarantula crawl … --serve` process, the address its log names, and its exit. */
export interface ServedCrawl {
  readonly child: ChildProcess;
  /** `http://HOST:PORT` of its control API. */
  readonly base: string;
  readonly exit: Promise<{ code: number | null; stderr: string }>;
  /** Its log so far. */
  stderr(): string;
}

/**
 * Starts `tarantula ARGS…` (a crawl with `--serve`) in `cwd` and waits until its log says where it
 * serves. The command serves before it starts any worker, so the first address logged is its own.
 */
export async function startServedCrawl(args: readonly string[], cwd: string): Promise<ServedCrawl> {
  const child = spawn(CLI, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  let base: string | undefined;
  let ended = false;
  void exit.then(() => (ended = true));
  await until(() => {
    base = /"url":"(http:\/\/[^"]+)\/"/.exec(stderr)?.[1];
    if (ended && base === undefined) throw new Error(`the crawl ended before it served: ${stderr}`);
    return base !== undefined;
  }, 30_000);
  return { child, base: base!, exit, stderr: () => stderr };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The command `npx tarantula` runs, on the built CLI (`npm test` builds first): tests run what users run. */
export const CLI = fileURLToPath(new URL('../../bin/tarantula', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Kills the process after this many ms (the test then sees the signal). Default 60 s. */
  readonly timeoutMs?: number;
  /** `pipe` gives the process a stdin for `onSpawn` to write to (`child.stdin`); by default it has none. */
  readonly stdin?: 'pipe' | 'ignore';
  /** Called once the process is running, e.g. to send it a signal later. */
  readonly onSpawn?: (child: ChildProcess) => void;
  /** The tarantula to run, e.g. one installed in a user's project (default: this checkout's bin/tarantula). */
  readonly command?: string;
  /** The largest file the process may write, in KiB (`ulimit -f`): a write past it fails with EFBIG, as on a full disk. */
  readonly fileSizeLimitKb?: number;
}

/**
 * Runs `tarantula ARGS...` as a real child process and collects its output.
 *
 * @example
 * const { code, stdout } = await runCli(['crawl', 'Crawler.conf', '--index', '-'], { cwd: dir });
 */
export function runCli(args: readonly string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const cli = opts.command ?? CLI;
    const [command, argv] = opts.fileSizeLimitKb === undefined
      ? [cli, args]
      : ['/bin/sh', ['-c', `ulimit -f ${opts.fileSizeLimitKb} && exec "$0" "$@"`, cli, ...args]];
    const child = spawn(command, argv, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    opts.onSpawn?.(child);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** `--resolve` flags sending each host at `port` to 127.0.0.1. */
export function resolveFlags(hosts: readonly string[], port: number): string[] {
  return hosts.flatMap((h) => ['--resolve', `${h}:${port}:127.0.0.1`]);
}

import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './run-cli.js';

/** What a terminal received from a run: stdout and stderr both, as the pseudo-terminal merged them. */
export interface TerminalRun {
  readonly code: number | null;
  readonly screen: string;
}

export interface TerminalOptions {
  readonly cwd?: string;
  /** Sends stdout to this file instead, as `> FILE` would. */
  readonly stdoutTo?: string;
  /** Sends SIGINT to tarantula (as Ctrl-C would) once the screen shows this. */
  readonly interruptWhen?: RegExp;
}

const quote = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;
let runs = 0;

/**
 * Runs `tarantula ARGS...` with a pseudo-terminal as its stdin, stdout and stderr, through util-linux
 * `script` (`-q` no banner, `-f` flush at once, `-e` the command's exit status, `-c` the command), and
 * collects what it wrote to the terminal. `env` replaces TERM, NO_COLOR, FORCE_COLOR and CI as given.
 *
 * @example
 * const { screen } = await runInTerminal(['demo'], { TERM: 'xterm-256color' });
 */
export function runInTerminal(args: readonly string[], env: NodeJS.ProcessEnv, opts: TerminalOptions = {}): Promise<TerminalRun> {
  return new Promise((resolve, reject) => {
    const base = { ...process.env };
    // CI (set by CI runners, and by ours) makes Node report a two-colour terminal: these runs are a person's terminal.
    for (const name of ['TERM', 'NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS', 'COLORTERM', 'CI']) delete base[name];
    // The shell script runs writes its pid, then becomes tarantula (exec): the pid to signal.
    const pidFile = join(tmpdir(), `tarantula-pty-${process.pid}-${++runs}.pid`);
    const command =
      `echo $$ > ${quote(pidFile)}; exec ` +
      [CLI, ...args].map(quote).join(' ') +
      (opts.stdoutTo === undefined ? '' : ` > ${quote(opts.stdoutTo)}`);
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: opts.cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    let interrupted = false;
    const take = (s: string): void => {
      screen += s;
      if (opts.interruptWhen === undefined || interrupted || !opts.interruptWhen.test(screen)) return;
      interrupted = true;
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGINT');
    };
    child.stdout.setEncoding('utf8').on('data', take);
    child.stderr.setEncoding('utf8').on('data', take);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(pidFile, { force: true });
      resolve({ code, screen });
    });
  });
}

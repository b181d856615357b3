import { spawn } from 'node:child_process';
import { CLI } from './run-cli.js';

/** What a terminal received from a run: stdout and stderr both, as the pseudo-terminal merged them. */
export interface TerminalRun {
  readonly code: number | null;
  readonly screen: string;
}

const quote = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Runs `tarantula ARGS...` with a pseudo-terminal as its stdin, stdout and stderr, through util-linux
 * `script` (`-q` no banner, `-f` flush at once, `-e` the command's exit status, `-c` the command), and
 * collects what it wrote to the terminal. `env` replaces TERM, NO_COLOR and FORCE_COLOR as given;
 * `stdoutTo` sends stdout to a file instead, as `> FILE` would.
 *
 * @example
 * const { screen } = await runInTerminal(['demo'], { TERM: 'xterm-256color' });
 */
export function runInTerminal(args: readonly string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; stdoutTo?: string } = {}): Promise<TerminalRun> {
  return new Promise((resolve, reject) => {
    const base = { ...process.env };
    for (const name of ['TERM', 'NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS', 'COLORTERM']) delete base[name];
    const command = [process.execPath, CLI, ...args].map(quote).join(' ') + (opts.stdoutTo === undefined ? '' : ` > ${quote(opts.stdoutTo)}`);
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: opts.cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (screen += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (screen += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

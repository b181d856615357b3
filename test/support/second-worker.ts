import type { ChildProcess } from 'node:child_process';
import { logLines } from './hostile-web.js';

/**
 * Watches a supervisor's log (run it with `--log-level 1` or more) for its second `worker started`
 * line and calls `act` with that worker's pid, once: the start of the tests that SIGKILL a worker.
 * `pid()` is the pid handed to `act`, undefined until then.
 */
export function onSecondWorker(act: (pid: number) => void): { onSpawn: (child: ChildProcess) => void; pid: () => number | undefined } {
  let found: number | undefined;
  const onSpawn = (child: ChildProcess): void => {
    let log = '';
    child.stderr!.on('data', (s: string) => {
      log += s;
      const started = logLines(log.slice(0, log.lastIndexOf('\n') + 1)).filter((l) => l.msg === 'worker started');
      if (found !== undefined || started.length < 2) return;
      found = started[1]!.pid as number;
      act(found);
    });
  };
  return { onSpawn, pid: () => found };
}

/**
 * The CPU of each thread of a crawler process (user and system seconds, from /proc/PID/task/TID/stat,
 * Linux), read every 200 ms until the process ends: what a CPU profile cannot tell on a loaded
 * machine, where it samples in wall time and charges the time a thread waits for a core to
 * whatever it was running. Start it, then the crawl:
 *
 *   npx tsx bench/thread-cpu.ts 'dist/tarantula.mjs crawl' & npx tsx bench/run.ts --pages 20000
 *
 * The argument is a piece of the process's command line (`/proc/PID/cmdline`, its words joined by
 * spaces); the first process found with it (other than this script and the npx that started it)
 * is followed. Prints the main thread (whose id is the
 * process's) first, then the others, busiest first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const pattern = process.argv[2];
if (pattern === undefined) throw new Error('usage: thread-cpu.ts PIECE-OF-COMMAND-LINE');

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};
const find = (): number | undefined =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .map(Number)
    .find((pid) => {
      const command = read(`/proc/${pid}/cmdline`)?.split('\0').join(' ') ?? '';
      // Not this script, nor npx and tsx above it, whose command lines hold the pattern too.
      return command.includes(pattern) && !command.includes('thread-cpu');
    });

let pid = find();
while (pid === undefined) {
  await sleep(100);
  pid = find();
}
/** Thread id → [user, system] clock ticks, as last read. */
const last = new Map<number, [number, number]>();
for (;;) {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    break; // the process is gone
  }
  for (const tid of tids) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    if (stat === undefined) continue;
    // Fields after the parenthesised name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    last.set(Number(tid), [Number(fields[11]), Number(fields[12])]);
  }
  await sleep(200);
}
const seconds = (ticks: number): string => (ticks / 100).toFixed(2); // USER_HZ = 100
const rows = [...last].sort(([a, x], [b, y]) => (a === pid ? -1 : b === pid ? 1 : y[0] + y[1] - x[0] - x[1]));
console.log(`process ${pid}: thread, user s, system s`);
for (const [tid, [user, system]] of rows) if (user + system > 0) console.log(`  ${tid === pid ? 'main' : tid}\t${seconds(user)}\t${seconds(system)}`);

import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far, from /proc/PID/stat (Linux): how the
 * benchmarks charge a child server's CPU without trusting the child to report it. NaN elsewhere.
 *
 * @example
 * const before = procCpuSeconds(child.pid!); // ... later: procCpuSeconds(child.pid!) - before
 */
export function procCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name, which may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts one of the bench servers (synthetic-web.ts, static-site.ts) in a child process of its own,
 * so that its CPU is not counted against the crawler's nor the load client's, and waits for the
 * `{"port":P}` line it prints once listening. Closing the child's stdin stops it; so does `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  readonly port: number;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * @example
 * const web = await startChildServer('synthetic-web.ts', ['--pages', '20000']); web.port //=> 40123
 */
export async function startChildServer(script: string, args: readonly string[]): Promise<ChildServer> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [undefined])])) as [string | undefined];
  lines.close();
  if (first === undefined) throw new Error(`${script} exited before listening`);
  const { port } = JSON.parse(first) as { port: number };
  return {
    port,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin!.end();
      await exited;
    },
  };
}

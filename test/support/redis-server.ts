import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { tempDir } from './temp-dir.js';

/** A redis-server of a test's own: a free port on 127.0.0.1, a temp dir, AOF on. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:PORT/0`, or `redis://:PASSWORD@127.0.0.1:PORT/0`. */
  readonly url: string;
  /** A client, for the test to look at the crawl's keys. */
  client(): Redis;
  /** Stops the server by its pid (SIGTERM: it writes its AOF), keeping its dir. */
  stop(): Promise<void>;
  /** Starts it again on the same port and dir: what it had is loaded from its AOF. */
  restart(): Promise<void>;
  /** Stops it and removes its dir. */
  close(): Promise<void>;
}

/** A port nobody listens on, found by binding port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `redis-server` on `port` with its files in `dir` (AOF on) and `extra` arguments, and resolves
 * once it answers a PING.
 */
export async function spawnRedis(port: number, dir: string, extra: readonly string[] = [], password?: string): Promise<ChildProcess> {
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--protected-mode', 'no', ...extra], {
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, ...(password === undefined ? {} : { password }) });
    probe.on('error', () => undefined);
    const up = await probe.connect().then(() => probe.ping()).then(() => true, () => false);
    probe.disconnect();
    if (up) return proc;
    if (i > 200 || proc.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Stops a redis-server by its pid (SIGTERM: it writes its AOF) and waits for its exit. */
export async function stopRedis(proc: ChildProcess | undefined): Promise<void> {
  if (proc === undefined || proc.exitCode !== null) return;
  await new Promise<void>((done) => {
    proc.once('exit', () => done());
    process.kill(proc.pid!, 'SIGTERM');
  });
}

/**
 * Starts `redis-server` (installed by test/support/require-system-packages.sh) on a free port;
 * with `password`, it asks clients for it (`--requirepass`) and `url` carries it.
 *
 * @example
 * const redis = await startRedis(); ...; await redis.close();
 */
export async function startRedis(password?: string): Promise<TestRedis> {
  const tmp = await tempDir('tarantula-redis-');
  const port = await freePort();
  let proc: ChildProcess | undefined;
  const clients: Redis[] = [];
  const args = password === undefined ? [] : ['--requirepass', password];
  const start = async (): Promise<void> => {
    proc = await spawnRedis(port, tmp.dir, args, password);
  };
  const stop = async (): Promise<void> => {
    const p = proc;
    proc = undefined;
    await stopRedis(p);
  };
  await start();
  return {
    port,
    url: `redis://${password === undefined ? '' : `:${password}@`}127.0.0.1:${port}/0`,
    client: () => {
      const c = new Redis({ port, host: '127.0.0.1', ...(password === undefined ? {} : { password }) });
      clients.push(c);
      return c;
    },
    stop,
    restart: start,
    close: async () => {
      for (const c of clients) c.disconnect();
      await stop();
      await tmp.remove();
    },
  };
}

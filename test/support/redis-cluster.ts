import { execFile, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { freePort, spawnRedis, stopRedis } from './redis-server.js';
import { tempDir } from './temp-dir.js';

/** A Redis Cluster of a test's own: masters on free ports of 127.0.0.1, each in a temp dir, AOF on. */
export interface TestCluster {
  readonly ports: readonly number[];
  /** `redis://127.0.0.1:PORT/0` of master `i`. */
  url(i: number): string;
  /** A client of one master alone (no redirections), for the test to look at the keys it holds. */
  node(i: number): Redis;
  /** A cluster client. */
  client(): Cluster;
  /** Stops master `i` by its pid (SIGTERM: it writes its AOF), keeping its dir. */
  stop(i: number): Promise<void>;
  /** Starts master `i` again on the same port and dir, and waits until the cluster is whole again. */
  restart(i: number): Promise<void>;
  /** Stops every master and removes their dirs. */
  close(): Promise<void>;
}

/**
 * Starts `masters` redis-servers with `--cluster-enabled yes` (their bus on free ports too) and joins
 * them with `redis-cli --cluster create … --cluster-replicas 0`; resolves once every node says
 * `cluster_state:ok`.
 *
 * @example
 * const cluster = await startRedisCluster(3); ...; await cluster.close();
 */
export async function startRedisCluster(masters = 3): Promise<TestCluster> {
  const tmp = await tempDir('tarantula-cluster-');
  const ports: number[] = [];
  const busPorts: number[] = [];
  while (ports.length < masters) {
    const port = await freePort();
    const bus = await freePort();
    if (port !== bus && !ports.includes(port) && !ports.includes(bus) && !busPorts.includes(port) && !busPorts.includes(bus)) {
      ports.push(port);
      busPorts.push(bus);
    }
  }
  const procs: (ChildProcess | undefined)[] = [];
  const clients: (Redis | Cluster)[] = [];
  const start = async (i: number): Promise<void> => {
    const dir = join(tmp.dir, String(ports[i]));
    await mkdir(dir, { recursive: true });
    procs[i] = await spawnRedis(ports[i]!, dir, ['--cluster-enabled', 'yes', '--cluster-port', String(busPorts[i]), '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000']);
  };
  const whole = async (): Promise<void> => {
    for (let i = 0; ; i++) {
      const states = await Promise.all(ports.map((port) => clusterState(port)));
      if (states.every((s) => s === 'ok')) return;
      if (i > 600) throw new Error(`the cluster on ${ports.join(', ')} is not ok: ${states.join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await Promise.all(ports.map((_, i) => start(i)));
  await promisify(execFile)('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
  await whole();
  const track = <C extends Redis | Cluster>(c: C): C => {
    c.on('error', () => undefined);
    clients.push(c);
    return c;
  };
  return {
    ports,
    url: (i) => `redis://127.0.0.1:${ports[i]}/0`,
    node: (i) => track(new Redis({ port: ports[i]!, host: '127.0.0.1' })),
    client: () => track(new Cluster([{ host: '127.0.0.1', port: ports[0]! }])),
    stop: async (i) => {
      const p = procs[i];
      procs[i] = undefined;
      await stopRedis(p);
    },
    restart: async (i) => {
      await start(i);
      await whole();
    },
    close: async () => {
      for (const c of clients) c.disconnect();
      await Promise.all(procs.map((p) => stopRedis(p)));
      await tmp.remove();
    },
  };
}

/** A node's `cluster_state` (ok, fail), or `down` when it does not answer. */
async function clusterState(port: number): Promise<string> {
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  const info = await probe.connect().then(() => probe.cluster('INFO') as Promise<string>).catch(() => '');
  probe.disconnect();
  return /cluster_state:(\w+)/.exec(info)?.[1] ?? 'down';
}

import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { EXIT, exitWith } from '../app/exit-status.js';
import { withoutPassword } from '../config/without-password.js';

/** A connection to the frontier's Redis: one server, or every master of a Redis Cluster. */
export type FrontierRedis = Redis | Cluster;

/** What {@link connectFrontier} found. */
export interface FrontierConnection {
  readonly redis: FrontierRedis;
  /** The masters serving the crawl: 1 for a standalone Redis. */
  readonly masters: number;
  readonly cluster: boolean;
}

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Connects to the Redis of a shared frontier, a standalone server or any node of a Redis Cluster
 * (told apart by `INFO cluster` on a first connection: a cluster gets ioredis's Cluster client, which
 * follows the slots to every master). Unreachable, a wrong password or a cluster URL naming a database
 * other than 0 is an error naming the URL, its password shown as `***` (exit 1). Once connected, a
 * lost connection is not retried: every command then fails and the worker stops.
 *
 * @example
 * const { redis, masters } = await connectFrontier('redis://127.0.0.1:7101/0'); //=> masters 3 on a 3-master cluster
 */
export async function connectFrontier(url: string): Promise<FrontierConnection> {
  const shown = withoutPassword(url);
  const { db, ...options } = optionsOf(url);
  const probe = new Redis({ ...options, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: CONNECT_TIMEOUT_MS });
  // The first error says why (refused, wrong password); the command that meets it only says "closed".
  let first: Error | undefined;
  probe.on('error', (err: Error) => void (first ??= err));
  let cluster: boolean;
  try {
    await probe.connect();
    cluster = /^cluster_enabled:1/m.test(await probe.info('cluster'));
    if (!cluster && db !== 0) await probe.select(db);
  } catch (err) {
    probe.disconnect();
    throw unreachable(shown, first ?? (err as Error));
  }
  if (!cluster) return { redis: probe, masters: 1, cluster };
  probe.disconnect();
  if (db !== 0) throw exitWith(EXIT.cannotRun, `the Redis frontier at ${shown} is a Redis Cluster, whose only database is 0: use ${shown.replace(/\/\d*$/, '/0')}`);
  const { host, port, ...auth } = options;
  const redis = new Cluster([{ host, port }], {
    lazyConnect: true,
    enableOfflineQueue: false,
    clusterRetryStrategy: () => null,
    // A master that is down fails the commands of its slots: the worker stops, as for a lost standalone Redis.
    retryDelayOnClusterDown: 100,
    maxRedirections: 16,
    redisOptions: { ...auth, maxRetriesPerRequest: 0, connectTimeout: CONNECT_TIMEOUT_MS },
  });
  first = undefined;
  redis.on('error', (err: Error) => void (first ??= err));
  try {
    await redis.connect();
    return { redis, masters: Math.max(1, redis.nodes('master').length), cluster };
  } catch (err) {
    redis.disconnect();
    throw unreachable(shown, first ?? (err as Error));
  }
}

/** The connection options a `redis://` or `rediss://` URL names. */
function optionsOf(url: string): RedisOptions & { host: string; port: number; db: number } {
  const u = new URL(url);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port === '' ? 6379 : Number(u.port),
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    ...(u.username !== '' ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password !== '' ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: { servername: u.hostname } } : {}),
  };
}

/** Why a Redis could not be used: authentication apart from the rest, which is about reaching it. */
function unreachable(shown: string, err: Error): Error {
  const message = err.message;
  if (/^(WRONGPASS|NOAUTH)\b/.test(message)) {
    const why = message.startsWith('NOAUTH') ? 'it needs a password (redis://:PASSWORD@HOST:PORT/DB)' : 'wrong user name or password';
    return exitWith(EXIT.cannotRun, `authentication failed at the Redis frontier at ${shown}: ${why}`);
  }
  return exitWith(EXIT.cannotRun, `cannot reach the Redis frontier at ${shown}: ${message}`);
}

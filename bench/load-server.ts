/**
 * The synthetic web's own ceiling: a keep-alive client (undici Pool, the crawler's HTTP stack) asks
 * for random pages of random hosts as fast as it can, with the server in its own child process.
 *
 *   npx tsx bench/load-server.ts [--pages 20000] [--connections 16] [--seconds 10]
 *
 * Prints requests/s, MB/s, and the CPU seconds of the server and of the client per 1000 requests.
 */
import { Pool } from 'undici';
import { startChildServer } from './child-server.js';
import { procCpuSeconds } from './proc-cpu.js';
import { hostOf } from './synthetic-web.js';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const pages = flag('--pages', 20_000);
const hosts = flag('--hosts', 50);
const connections = flag('--connections', 16);
const seconds = flag('--seconds', 10);

const server = await startChildServer('synthetic-web.ts', ['--pages', String(pages), '--hosts', String(hosts)]);
const pool = new Pool(`http://127.0.0.1:${server.port}`, { connections, keepAliveTimeout: 60_000 });
let requests = 0;
let bytes = 0;
let next = 0;

async function client(until: number): Promise<void> {
  while (performance.now() < until) {
    const i = (next = (next + 7919) % pages);
    const res = await pool.request({ method: 'GET', path: `/p/${i}.html`, headers: { host: `${hostOf(i, { hosts })}:${server.port}` } });
    for await (const chunk of res.body) bytes += (chunk as Buffer).length;
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode} for page ${i}`);
    requests++;
  }
}

// A short warm-up so that both sides are past JIT compilation before the clock starts.
await Promise.all(Array.from({ length: connections }, () => client(performance.now() + 1000)));
requests = bytes = 0;
const serverCpu0 = procCpuSeconds(server.child.pid!);
const clientCpu0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(Array.from({ length: connections }, () => client(t0 + seconds * 1000)));
const wall = (performance.now() - t0) / 1000;
const clientCpu = process.cpuUsage(clientCpu0);
const serverCpu = procCpuSeconds(server.child.pid!) - serverCpu0;
await pool.close();
await server.stop();

const per1000 = (cpu: number): string => ((cpu / requests) * 1000).toFixed(3);
console.log(
  JSON.stringify({
    pages, hosts, connections, seconds: Math.round(wall * 100) / 100, requests,
    requestsPerSecond: Math.round(requests / wall), megabytesPerSecond: Math.round(bytes / wall / 1e5) / 10,
    serverCpuPercent: Math.round((serverCpu / wall) * 100), serverCpuSecondsPer1000: per1000(serverCpu),
    clientCpuSecondsPer1000: per1000((clientCpu.user + clientCpu.system) / 1e6),
  }, null, 2),
);

/**
 * HTTP/1.1 against HTTP/2 on the same TLS loopback site: the synthetic web served by node:http2
 * (HTTP/1.1 allowed, so one server answers both), crawled by the real CLI with and without
 * `--http2`, the runs alternating. Prints pages/s and the crawler's CPU per 1,000 pages.
 *
 *   npx tsx bench/h2.ts [--pages 2000] [--hosts 4] [--max-per-host 4] [--threads 16] [--latency-ms 0] [--rounds 2]
 */
import { createSecureServer } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCa } from '../test/support/test-certificates.js';
import { runCrawler } from './run-crawler.js';
import { DOMAIN, expected, hubUrl, syntheticWebHandler, type SyntheticWeb } from './synthetic-web.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const pages = flag('--pages', 2000);
const hosts = flag('--hosts', 4);
const maxPerHost = flag('--max-per-host', 4);
const threads = flag('--threads', 16);
const latencyMs = flag('--latency-ms', 0);
const rounds = flag('--rounds', 2);

const dir = await mkdtemp(join(tmpdir(), 'tarantula-h2-'));
const ca = makeTestCa(dir);
const web: { -readonly [K in keyof SyntheticWeb]: SyntheticWeb[K] } = { pages, hosts, port: 0, scheme: 'https' };
const handle = syntheticWebHandler(web);
const versions = new Map<string, number>();
const server = createSecureServer({ ...ca.issue([DOMAIN, `*.${DOMAIN}`]), allowHTTP1: true, peerMaxConcurrentStreams: 100 }, (req, res) => {
  versions.set(req.httpVersion, (versions.get(req.httpVersion) ?? 0) + 1);
  // The handler reads the Host header, which HTTP/2 carries as :authority.
  req.headers.host ??= req.authority;
  const answer = (): void => handle(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  if (latencyMs > 0) setTimeout(answer, latencyMs);
  else answer();
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
web.port = (server.address() as AddressInfo).port;
const want = expected(web);

console.log(`h1 vs h2: ${pages} pages on ${hosts} hosts, TLS, threads ${threads}, max-per-host ${maxPerHost}, latency ${latencyMs} ms; load average ${loadavg()[0]!.toFixed(2)}`);
console.log('| protocol | pages/s | crawler CPU s / 1000 pages | wall s | documents |');
console.log('| --- | --- | --- | --- | --- |');
try {
  for (let round = 0; round < rounds; round++) {
    for (const protocol of ['h1', 'h2'] as const) {
      versions.clear();
      const work = join(dir, `${protocol}-${round}`);
      await mkdir(work);
      const settings = {
        seeds: [hubUrl(web.port, 'https')], scope: 'domain-scope' as const, threads, maxPerHost, timeLimitSeconds: 240,
        resolve: want.hostNames.map((h) => `${h}:${web.port}:127.0.0.1`),
      };
      const run = await runCrawler(settings, work, { args: ['--ca-file', ca.caFile, ...(protocol === 'h2' ? ['--http2'] : [])] });
      const spoken = [...versions.keys()].join('+');
      const cpu = run.time?.cpuSeconds ?? run.stats.cpuSeconds;
      console.log(`| ${protocol} (${spoken}) | ${run.stats.pagesPerSecond} | ${((cpu / run.stats.documents) * 1000).toFixed(2)} | ${run.wallSeconds.toFixed(1)} | ${run.stats.documents}/${want.documents} |`);
      await rm(work, { recursive: true, force: true });
    }
  }
} finally {
  server.close();
  await rm(dir, { recursive: true, force: true });
}

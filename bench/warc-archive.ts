/**
 * The archive's own cost, outside a crawl: `WarcArchive.record` for synthetic-web pages (about 10 KB
 * of HTML each, the headers the synthetic server sends), 16 records in flight as in the bench crawl:
 *
 *   npx tsx bench/warc-archive.ts [--fetches 20000]
 *
 * prints CPU and wall microseconds per fetch (a request and a response record, deflated and written
 * with their CDXJ line) into a temporary folder it removes. Every body is distinct, as in the bench
 * crawl; a body seen before would be archived as a revisit, without it. In a crawl the same work costs
 * about 1.8 times more (caches shared with the crawl, the garbage collector): `npm run bench -- --warc`
 * measures that.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WarcArchive } from '../src/archive/warc-archive.js';
import type { FetchResponse } from '../src/model/fetch-response.js';
import { pageUrl, renderPage, type SyntheticWeb } from './synthetic-web.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--fetches');
const fetches = at >= 0 ? Number(argv[at + 1]) : 20_000;
const web: SyntheticWeb = { pages: 20_000, hosts: 50, port: 40_000 };
const IN_FLIGHT = 16;
const pages = Array.from({ length: 2_000 }, (_, i) => Buffer.from(renderPage(i, web)));

function response(i: number): FetchResponse {
  const body = Buffer.concat([Buffer.from(`<!-- ${i} -->\n`), pages[i % pages.length]!]);
  const headers: [string, string][] = [
    ['Content-Type', 'text/html; charset=utf-8'], ['Last-Modified', 'Mon, 01 Jan 2024 00:00:00 GMT'], ['Date', new Date().toUTCString()],
    ['Connection', 'keep-alive'], ['Keep-Alive', 'timeout=5'], ['Content-Length', String(body.length)],
  ];
  return {
    status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body, truncated: false, startedAt: Date.now(), durationMs: 1,
    wire: { target: `/p/${i}.html`, requestHeaders: [['user-agent', 'tarantula/0.1.0'], ['accept', '*/*'], ['accept-encoding', 'gzip, deflate, br']], statusText: 'OK', headers, body },
  };
}

async function run(archive: WarcArchive, count: number, first: number): Promise<{ cpu: number; wall: number }> {
  const inFlight: Promise<void>[] = [];
  const cpu = process.cpuUsage();
  const wall = process.hrtime.bigint();
  for (let i = first; i < first + count; i++) {
    inFlight.push(archive.record(pageUrl(i, web), response(i)));
    if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
  }
  await Promise.all(inFlight);
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / count, wall: Number(process.hrtime.bigint() - wall) / 1000 / count };
}

const dir = await mkdtemp(join(tmpdir(), 'tarantula-warc-bench-'));
try {
  const addresses = new Map(Array.from({ length: web.hosts }, (_, h) => [`h${h}.bench.test:${web.port}`, '127.0.0.1'] as const));
  const archive = await WarcArchive.open({ path: join(dir, 'crawl'), maxSize: 0, info: { software: 'bench' }, addresses });
  await run(archive, 3_000, web.pages); // warm-up: the compiler, zlib, the file
  const { cpu, wall } = await run(archive, fetches, 0);
  await archive.close();
  console.log(`${fetches} fetches archived: ${cpu.toFixed(1)} µs of CPU and ${wall.toFixed(1)} µs of wall time a fetch`);
} finally {
  await rm(dir, { recursive: true, force: true });
}

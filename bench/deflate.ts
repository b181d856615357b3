/**
 * What deflating a WARC record costs on this machine, apart from the rest of the archive: zlib's
 * level 1 on the kept stream the archive uses (`GzipDeflater`) and through `gzipSync`, for the
 * response and request records of synthetic-web pages as `exchangeRecords` makes them, beside the
 * SHA-1 and CRC-32 of the same bytes:
 *
 *   npx tsx bench/deflate.ts [--records-out FILE]
 *
 * prints CPU microseconds a record and the compressed share. `--records-out` also writes the
 * response records, each a 4-byte little-endian length and its bytes, for `bench/deflate-native.c`
 * (the system's zlib and libdeflate, in C, on the same bytes).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { crc32, gzipSync } from 'node:zlib';
import { GzipDeflater } from '../src/archive/gzip-deflater.js';
import { warcDate } from '../src/archive/warc-date.js';
import { exchangeRecords, sha1Digest, type RecordBlock } from '../src/archive/warc-records.js';
import { hostOf, pageUrl, renderPage, type SyntheticWeb } from './synthetic-web.js';

const web: SyntheticWeb = { pages: 20_000, hosts: 50, port: 40_000 };
const COUNT = 200;

/** A record's bytes as `gzipMember` deflates them: the WARC head, CRLF, the block, two CRLFs. */
const bytesOf = ({ record, block }: RecordBlock): Buffer =>
  Buffer.concat([Buffer.from(`${record.warcHeaders.toString()}\r\n`), ...block, Buffer.from('\r\n\r\n')]);

const exchanges = Array.from({ length: COUNT }, (_, i) => {
  const body = Buffer.from(renderPage(i, web));
  const headers: [string, string][] = [
    ['Content-Type', 'text/html; charset=utf-8'], ['Last-Modified', 'Mon, 01 Jan 2024 00:00:00 GMT'],
    ['Date', new Date().toUTCString()], ['Connection', 'keep-alive'], ['Keep-Alive', 'timeout=5'], ['Content-Length', String(body.length)],
  ];
  const wire = { target: `/p/${i}.html`, requestHeaders: [['user-agent', 'tarantula/0.1.0'], ['accept', '*/*'], ['accept-encoding', 'gzip, deflate, br']] as const, statusText: 'OK', headers, body };
  const [request, response] = exchangeRecords(
    { url: pageUrl(i, web), host: `${hostOf(i, web)}:${web.port}`, status: 200, date: warcDate(Date.now()), truncated: false, wire, ip: '127.0.0.1' },
    sha1Digest(body),
  );
  return { request: bytesOf(request), response: bytesOf(response) };
});
const responses = exchanges.map((e) => e.response);
const requests = exchanges.map((e) => e.request);

/** CPU µs a call of `f` over `inputs`, after a warm-up, and the share of the input that its Buffers make (a member's, not a digest's). */
function measure(f: (input: Buffer) => Buffer | number, inputs: readonly Buffer[], rounds: number): { us: number; share?: number } {
  for (const input of inputs) f(input);
  let inBytes = 0;
  let outBytes = 0;
  const cpu = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    for (const input of inputs) {
      const out = f(input);
      inBytes += input.length;
      if (Buffer.isBuffer(out)) outBytes += out.length;
    }
  }
  const used = process.cpuUsage(cpu);
  return { us: (used.user + used.system) / (rounds * inputs.length), ...(outBytes > 0 ? { share: outBytes / inBytes } : {}) };
}

const deflater = new GzipDeflater({ level: 1 }, 1 << 20);
const average = (inputs: readonly Buffer[]): number => inputs.reduce((n, b) => n + b.length, 0) / inputs.length;
console.log(`${COUNT} synthetic-web exchanges: response records ${average(responses).toFixed(0)} bytes, request records ${average(requests).toFixed(0)} bytes on average`);
for (const [name, f] of [
  ['GzipDeflater, level 1', (b: Buffer) => deflater.gzip(b)],
  ['gzipSync, level 1', (b: Buffer) => gzipSync(b, { level: 1 })],
  ['SHA-1', (b: Buffer) => createHash('sha1').update(b).digest().length],
  ['CRC-32', (b: Buffer) => crc32(b)],
] as const) {
  for (const [kind, inputs] of [['response', responses], ['request', requests]] as const) {
    const { us, share } = measure(f, inputs, 50);
    console.log(`  ${`${name}, ${kind}`.padEnd(34)} ${us.toFixed(1).padStart(6)} µs a record${share === undefined ? '' : `, ${(100 * share).toFixed(1)} % of its size`}`);
  }
}

const at = process.argv.indexOf('--records-out');
if (at >= 0) {
  const file = process.argv[at + 1]!;
  writeFileSync(file, Buffer.concat(responses.flatMap((b) => {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(b.length);
    return [length, b];
  })));
  console.log(`response records written to ${file}`);
}

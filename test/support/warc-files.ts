import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CDXIndexer, WARCParser } from 'warcio';

/** RFC 4648 base32, written here so that the test does not check the crawler's digests with the crawler's encoder. */
export function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

export const sha1Base32 = (bytes: Uint8Array): string => `sha1:${base32(createHash('sha1').update(bytes).digest())}`;

/** One record of a WARC file as warcio's reader gives it back, with its whole block. */
export interface ParsedRecord {
  readonly type: string;
  readonly version: string;
  readonly header: (name: string) => string | null;
  /** The record block: for request, response and revisit records the HTTP head and then the payload. */
  readonly block: Buffer;
  /** Where the HTTP head ends in the block (the payload starts there), or 0 for other records. */
  readonly payloadAt: number;
  readonly offset: number;
  readonly length: number;
}

/** Every record of a WARC file, read with warcio's WARCParser (no HTTP parsing: the block as written). */
export async function readWarc(file: string): Promise<ParsedRecord[]> {
  const parser = new WARCParser(createReadStream(file), { parseHttp: false });
  const records: ParsedRecord[] = [];
  for await (const record of parser) {
    const block = Buffer.from(await record.readFully());
    const type = record.warcType;
    const http = type === 'request' || type === 'response' || type === 'revisit';
    records.push({
      type,
      version: record.warcHeaders.statusline,
      header: (name) => record.warcHeader(name) ?? null,
      block,
      payloadAt: http ? block.indexOf('\r\n\r\n') + 4 : 0,
      offset: parser.offset,
      length: parser.recordLength,
    });
  }
  return records;
}

/** warcio's own CDXJ of a WARC file (what `warcio cdx-index --format cdxj FILE` prints). */
export async function warcioCdxj(file: string): Promise<string> {
  const indexer = new CDXIndexer({ format: 'cdxj' });
  let out = '';
  for await (const cdx of indexer.iterIndex([{ filename: basename(file), reader: createReadStream(file) }])) out += indexer.serialize(cdx);
  return out;
}

/** The WARC files of `PATH` (`PATH-00000.warc.gz`, …) in order. */
export async function warcFiles(dir: string, prefix: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.warc.gz'))
    .sort()
    .map((f) => join(dir, f));
}

export const cdxjOf = (warc: string): string => warc.replace(/\.warc\.gz$/, '.cdxj');

/**
 * Checks what every WARC file must satisfy, returning its records: it parses to its very end with
 * warcio, starts with a warcinfo, every block has its Content-Length, the digests are right, and
 * the CDXJ beside it is the one warcio makes.
 */
export async function checkWarc(file: string, expect: (ok: boolean, what: string) => void): Promise<ParsedRecord[]> {
  const records = await readWarc(file);
  expect(records[0]?.type === 'warcinfo', `${file} starts with a warcinfo`);
  const last = records.at(-1)!;
  expect(last.offset + last.length === (await stat(file)).size, `${file}: its last record ends where the file ends`);
  for (const r of records) {
    expect(r.version === 'WARC/1.1', `${file}@${r.offset}: WARC/1.1`);
    expect(r.block.length === Number(r.header('Content-Length')), `${file}@${r.offset}: the block has its Content-Length`);
    if (r.type === 'warcinfo') continue;
    expect(r.header('WARC-Block-Digest') === sha1Base32(r.block), `${file}@${r.offset}: WARC-Block-Digest`);
    if (r.type !== 'revisit') expect(r.header('WARC-Payload-Digest') === sha1Base32(r.block.subarray(r.payloadAt)), `${file}@${r.offset}: WARC-Payload-Digest`);
  }
  const ours = await readFile(cdxjOf(file), 'utf8');
  expect(ours === (await warcioCdxj(file)), `${file}: the CDXJ is warcio's`);
  return records;
}

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWarc, sha1Base32, warcFiles } from '../../test/support/warc-files.js';
import type { FetchResponse } from '../model/fetch-response.js';
import { WarcArchive } from './warc-archive.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tarantula-warc-archive-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const response = (path: string, body: Buffer, status = 200): FetchResponse => ({
  status, headers: { 'content-type': 'text/html; charset=utf-8' }, body, truncated: false, startedAt: Date.parse('2026-12-01T09:00:00Z'), durationMs: 1,
  wire: {
    target: path, requestHeaders: [['user-agent', 'tarantula/0.1.0']], statusText: status === 304 ? 'Not Modified' : 'OK',
    headers: [['Content-Type', 'text/html; charset=utf-8'], ['Content-Length', String(body.length)]], body,
  },
});

describe('WarcArchive', () => {
  it('archives small and large bodies, copies of a payload and 304s, every record whole and indexed', async () => {
    const addresses = new Map([['a.test:80', '127.0.0.1']]);
    const archive = await WarcArchive.open({ path: join(dir, 'c'), maxSize: 0, info: { software: 'test' }, addresses });
    const small = Buffer.from('<title>small</title>');
    // Past 1 MiB a record is deflated as a stream rather than joined first (gzip-member.ts).
    const large = Buffer.alloc(3 << 20, 'large body ');
    // Bytes that do not deflate: the member outgrows zlib's output buffer for its size.
    const random = randomBytes(40_000);
    await Promise.all([
      archive.record('http://a.test/small', response('/small', small)),
      archive.record('http://a.test/large', response('/large', large)),
      archive.record('http://a.test/random', response('/random', random)),
    ]);
    await archive.record('http://a.test/copy', response('/copy', small));
    await archive.record('http://a.test/small', response('/small', Buffer.alloc(0), 304), { url: 'http://a.test/small', date: '2026-11-30T09:00:00Z' });
    await archive.close();

    const [file] = await warcFiles(dir, 'c');
    const records = await checkWarc(file!, (ok, what) => expect(ok, what).toBe(true));
    const of = (type: string, path: string) => records.find((r) => r.type === type && r.header('WARC-Target-URI') === `http://a.test${path}`)!;
    expect(records.map((r) => r.type).sort()).toEqual(['request', 'request', 'request', 'request', 'request', 'response', 'response', 'response', 'revisit', 'revisit', 'warcinfo']);
    expect(of('response', '/large').block.subarray(of('response', '/large').payloadAt).equals(large)).toBe(true);
    expect(of('response', '/random').block.subarray(of('response', '/random').payloadAt).equals(random)).toBe(true);
    expect(of('response', '/small').header('WARC-IP-Address')).toBe('127.0.0.1');
    expect(of('revisit', '/copy').header('WARC-Refers-To-Target-URI')).toBe('http://a.test/small');
    expect(of('revisit', '/copy').header('WARC-Payload-Digest')).toBe(sha1Base32(small));
    expect(of('revisit', '/small').header('WARC-Profile')).toBe('http://netpreserve.org/warc/1.1/revisit/server-not-modified');
  });

  it('refers a copy back to a payload archived before a resume', async () => {
    const body = Buffer.from('<title>once</title>');
    let archive = await WarcArchive.open({ path: join(dir, 'c'), maxSize: 0, info: { software: 'test' }, addresses: new Map() });
    await archive.record('http://a.test/first', response('/first', body));
    await archive.close();
    archive = await WarcArchive.open({ path: join(dir, 'c'), maxSize: 0, info: { software: 'test' }, addresses: new Map() });
    await archive.record('http://a.test/again', response('/again', body));
    await archive.close();
    const records = await checkWarc((await warcFiles(dir, 'c'))[0]!, (ok, what) => expect(ok, what).toBe(true));
    expect(records.filter((r) => r.type === 'revisit').map((r) => r.header('WARC-Refers-To-Target-URI'))).toEqual(['http://a.test/first']);
    const first = records.find((r) => r.type === 'response')!;
    expect(records.find((r) => r.type === 'revisit')!.header('WARC-Refers-To-Date')).toBe(first.header('WARC-Date'));
  });

  it('rejects opening a series whose WARC is shorter than its CDXJ says', async () => {
    const archive = await WarcArchive.open({ path: join(dir, 'c'), maxSize: 0, info: { software: 'test' }, addresses: new Map() });
    await archive.record('http://a.test/x', response('/x', Buffer.from('x')));
    await archive.close();
    await writeFile(join(dir, 'c-00000.warc.gz'), '');
    await expect(WarcArchive.open({ path: join(dir, 'c'), maxSize: 0, info: { software: 'test' }, addresses: new Map() })).rejects.toThrow('lists a record ending at byte');
  });
});

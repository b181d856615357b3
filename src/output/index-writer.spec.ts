import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { csvHeader } from './format-csv.js';
import { formatJsonl } from './format-jsonl.js';
import { IndexWriter } from './index-writer.js';
import type { IndexRecord } from '../model/index-record.js';

const rec = (i: number): IndexRecord => ({
  md5: i.toString(16).padStart(32, '0'), url: `http://h/${i}`, originalUrl: `/${i}`, title: `Page ${i}`, encoding: 'utf-8',
  type: 'html', lastModified: null, serverDate: null, status: 200, etag: null, localPath: `h/${i}.html`,
  contentLength: i, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 1, fetchedAt: '2024-01-01T00:00:00.000Z',
  durationMs: 3, duplicateOf: null, links: [{ url: `http://h/${i + 1}`, text: 'next' }],
});
const jsonl = (from: number, to: number): string => Array.from({ length: to - from }, (_, i) => formatJsonl(rec(from + i))).join('');

/** A Writable that records each chunk it is given, optionally slowly and with a small buffer. */
function recorder(delayMs = 0, highWaterMark = 16 * 1024): { stream: Writable; chunks: string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      setTimeout(done, delayMs);
    },
  });
  return { stream, chunks };
}

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'index-writer-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('IndexWriter on files', () => {
  it('writes every record, in order, and fsyncs on close', async () => {
    const path = join(dir, 'index.jsonl');
    const writer = await IndexWriter.open(path, { format: 'jsonl' });
    for (let i = 0; i < 1000; i++) writer.write(rec(i));
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe(jsonl(0, 1000));
  });

  it('atomic mode keeps the old file until close, then renames the new one over it', async () => {
    const path = join(dir, 'index.txt');
    await writeFile(path, 'old index\n');
    const writer = await IndexWriter.open(path, { format: 'jsonl', mode: 'atomic' });
    writer.write(rec(1));
    await writer.drain();
    expect(await readFile(path, 'utf8')).toBe('old index\n');
    expect(await readFile(`${path}.tmp`, 'utf8')).toBe(jsonl(1, 2));
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe(jsonl(1, 2));
    await expect(access(`${path}.tmp`)).rejects.toThrow();
  });

  it('atomic mode closed without commit leaves the old file and the complete new one beside it', async () => {
    const path = join(dir, 'index.txt');
    await writeFile(path, 'old index\n');
    const writer = await IndexWriter.open(path, { format: 'jsonl', mode: 'atomic' });
    writer.write(rec(1));
    await writer.close(false);
    expect(await readFile(path, 'utf8')).toBe('old index\n');
    expect(await readFile(`${path}.tmp`, 'utf8')).toBe(jsonl(1, 2));
  });

  it('append mode continues a file, cutting a record a crash left half written', async () => {
    const path = join(dir, 'index.jsonl');
    await writeFile(path, jsonl(0, 2) + jsonl(2, 3).slice(0, 30));
    const writer = await IndexWriter.open(path, { format: 'jsonl', mode: 'append' });
    writer.write(rec(2));
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe(jsonl(0, 3));
  });

  it('writes the csv header into a new or truncated file but not when appending to one', async () => {
    const path = join(dir, 'index.csv');
    for (const mode of ['append', 'append', 'truncate', 'append'] as const) {
      const writer = await IndexWriter.open(path, { format: 'csv', mode });
      writer.write(rec(0));
      await writer.close();
    }
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.filter((l) => l === csvHeader.trimEnd())).toHaveLength(1);
    expect(lines).toHaveLength(1 + 2 + 1);
  });

  it('rejects at open when the file cannot be written', async () => {
    await expect(IndexWriter.open(join(dir, 'missing', 'index.txt'), { format: 'seed' })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('IndexWriter on streams', () => {
  it('batches records into few writes, each holding whole records', async () => {
    const { stream, chunks } = recorder();
    const writer = await IndexWriter.open(stream, { format: 'jsonl', batchSize: 100 });
    for (let i = 0; i < 1000; i++) writer.write(rec(i));
    writer.write(rec(1000));
    await writer.close();
    expect(chunks.join('')).toBe(jsonl(0, 1001));
    expect(chunks.length).toBeLessThanOrEqual(12);
    for (const chunk of chunks) expect(chunk.endsWith('\n')).toBe(true);
  });

  it('writes a short batch on the next turn of the event loop without being closed', async () => {
    const { stream, chunks } = recorder();
    const writer = await IndexWriter.open(stream, { format: 'jsonl' });
    writer.write(rec(7));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(chunks).toEqual([jsonl(7, 8)]);
  });

  it('reports backpressure and waits for a slow reader, losing nothing', async () => {
    const { stream, chunks } = recorder(2, 1024);
    const writer = await IndexWriter.open(stream, { format: 'jsonl', highWaterMark: 4096 });
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      if (!writer.write(rec(i))) {
        refused++;
        await writer.drain();
      }
    }
    await writer.close();
    expect(refused).toBeGreaterThan(0);
    expect(chunks.join('')).toBe(jsonl(0, 300));
  });

  it('stops quietly when the reader goes away, and resolves closed', async () => {
    const stream = new PassThrough();
    let calls = 0;
    const writer = await IndexWriter.open(stream, { format: 'jsonl', onBrokenPipe: () => calls++ });
    writer.write(rec(0));
    await writer.drain();
    stream.destroy();
    writer.write(rec(1));
    await writer.closed;
    expect(writer.write(rec(2))).toBe(false);
    await expect(writer.close()).resolves.toBeUndefined();
    stream.emit('error', Object.assign(new Error('late'), { code: 'EPIPE' }));
    expect(calls).toBe(1);
  });

  it('throws other write errors from write() and close()', async () => {
    const stream = new Writable({ write: (_c, _e, done) => done(Object.assign(new Error('disk full'), { code: 'ENOSPC' })) });
    const writer = await IndexWriter.open(stream, { format: 'jsonl' });
    writer.write(rec(0));
    await expect(writer.close()).rejects.toThrow('disk full');
    expect(() => writer.write(rec(1))).toThrow('disk full');
  });

  it('refuses records after close', async () => {
    const writer = await IndexWriter.open(recorder().stream, { format: 'edges' });
    await writer.close();
    expect(() => writer.write(rec(0))).toThrow(/after close/);
  });

  it('lets a child process exit 0 when its stdout reader reads one line and goes away (| head -1)', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const script = `
      import { IndexWriter } from ${JSON.stringify(fileURLToPath(new URL('./index-writer.ts', import.meta.url)))};
      let stopped = false;
      const out = await IndexWriter.open(process.stdout, { format: 'edges', onBrokenPipe: () => { stopped = true; } });
      const rec = { url: 'http://h/', links: [{ url: 'http://h/a', text: '' }] };
      for (let i = 0; !stopped; i++) { out.write(rec); if (i % 100 === 0) await out.drain(); }
      await out.close();
      process.stderr.write('stopped\\n');`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await new Promise<string>((resolve) => {
      let data = '';
      child.stdout.on('data', (d: Buffer) => {
        data += d.toString();
        if (data.includes('\n')) {
          child.stdout.destroy();
          resolve(data.slice(0, data.indexOf('\n')));
        }
      });
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(first).toBe('http://h/\thttp://h/a');
    expect(stderr).toBe('stopped\n');
    expect(code).toBe(0);
  });
});

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { constants, createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import type { FixtureHooks } from '../../src/demo/fixture-server.js';

/**
 * Misbehaving servers for the hostile-web tests (`test/hostile-*.test.ts`, `test/robots-*.test.ts`,
 * `test/politeness.test.ts`, `test/traps.test.ts`, `test/redirects.test.ts`): fixture-server hooks
 * that each take over one host name, and readers of what a crawl logged and wrote.
 */

/** fixtures/hostile: good.test and other.test (well-behaved pages) and markup.test (malformed HTML). */
export const HOSTILE_ROOT = fileURLToPath(new URL('../../fixtures/hostile/', import.meta.url));

/** Answers one request to a host; `path` is the request target in origin-form. */
export type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => void;

/**
 * Hooks that give each named host to its handler, for every path, robots.txt included; the other
 * hosts are served from the fixture files.
 *
 * @example
 * startWeb('x', { root: HOSTILE_ROOT, hooks: hostHooks({ 'down.test': statusForever(500) }), extraHosts: ['down.test'] });
 */
export function hostHooks(handlers: Readonly<Record<string, Handler>>): FixtureHooks {
  return {
    handle: (req, res, at) => {
      const handler = handlers[at.host];
      if (handler === undefined) return false;
      handler(req, res, at.path);
      return true;
    },
  };
}

/** A small HTML page with a title and links (relative links need no port). */
export function html(title: string, links: readonly string[] = [], extra = ''): string {
  const anchors = links.map((href, i) => `<a href="${href}">link ${i}</a>`).join('\n');
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title>${extra}</head>\n<body><h1>${title}</h1>\n${anchors}\n</body></html>\n`;
}

/** Answers with `body` as UTF-8 HTML, with its Content-Length. */
export function sendHtml(res: ServerResponse, body: string, status = 200, headers: Record<string, string | number> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers }).end(body);
}

/** robots.txt 404 and every other path handled by `handler`. */
export function noRobots(handler: Handler): Handler {
  return (req, res, path) => {
    if (path === '/robots.txt') res.writeHead(404, { 'Content-Type': 'text/plain' }).end('none\n');
    else handler(req, res, path);
  };
}

/** Takes the request and never answers (the fixture server drops the connection when it closes). */
export const silent: Handler = () => {};

/** Sends the status line, headers and a first piece of the body, then stalls forever. */
export const stallAfterHeaders: Handler = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html' });
  res.write('<!DOCTYPE html><title>stalled</title><p>and then nothing more');
};

/** Resets the TCP connection (RST) as soon as the request arrives. */
export const resetConnection: Handler = (req) => {
  req.socket.resetAndDestroy();
};

/**
 * Writes a raw response whose Content-Length promises `declared` bytes, then `body` (shorter or
 * longer), then closes the connection.
 */
export function wrongContentLength(declared: number, body: string): Handler {
  return (_req, res) => {
    const socket = res.socket!;
    socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n${body}`);
  };
}

/** Always answers `status`, counting the requests. */
export function statusForever(status: number): Handler {
  return (_req, res) => sendHtml(res, html(`error ${status}`), status);
}

/** Counts handled requests of one path; `answer(n)` gives the n-th (0-based) its status, headers and body. */
export function counted(answer: (n: number, path: string) => { status: number; headers?: Record<string, string>; body: string }): Handler {
  const seen = new Map<string, number>();
  return (_req, res, path) => {
    const n = seen.get(path) ?? 0;
    seen.set(path, n + 1);
    const { status, headers, body } = answer(n, path);
    sendHtml(res, body, status, headers);
  };
}

const ZEROS = Buffer.alloc(64 * 1024);
const FILLER = Buffer.from('<p>' + 'spider food '.repeat(5460) + '</p>\n');

/** A stream of `total` bytes made of `chunk` repeated, made as it is read; `onRead` sees the running count. */
function repeated(chunk: Buffer, total: number, onRead?: (bytes: number) => void): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const piece = total - sent < chunk.length ? chunk.subarray(0, total - sent) : chunk;
      sent += piece.length;
      onRead?.(sent);
      this.push(piece);
    },
  });
}

/** A streamed page of `bytes` bytes of HTML (no Content-Length), never held in memory whole. */
export function hugePage(bytes: number): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.write('<!DOCTYPE html><title>huge</title>\n');
    const body = repeated(FILLER, bytes);
    body.pipe(res);
    res.on('close', () => body.destroy());
  };
}

type Coding = 'gzip' | 'deflate' | 'br';

/**
 * A compression bomb: `bytes` zero bytes compressed on the fly with `coding` and served as HTML
 * with that Content-Encoding. Nothing is kept: the zeros are made as the client reads, so
 * `meter.made` tells how far the client let it go before it hung up.
 */
export function bomb(coding: Coding, bytes: number, meter: { made: number } = { made: 0 }): Handler {
  return (_req, res) => {
    const zip =
      coding === 'gzip'
        ? createGzip({ level: 6 })
        : coding === 'deflate'
          ? createDeflate({ level: 6 })
          : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': coding }).flushHeaders();
    const zeros = repeated(ZEROS, bytes, (n) => (meter.made = n));
    zeros.pipe(zip).pipe(res);
    res.on('close', () => {
      zeros.destroy();
      zip.destroy();
    });
  };
}

/**
 * A TCP port on 127.0.0.1 that never completes a connection: a child process listens with a backlog
 * of one and never accepts (its event loop is blocked), and two connections fill the backlog, so the
 * kernel drops every further SYN and a connect waits until it times out.
 */
export async function blackhole(): Promise<{ port: number; close: () => void }> {
  const script =
    "const s=require('net').createServer();s.listen({port:0,host:'127.0.0.1',backlog:1},()=>{" +
    "process.stdout.write(s.address().port+'\\n');Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,120000)})";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('error', reject);
  });
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, '127.0.0.1');
    fillers.push(socket.on('error', () => {}));
    await new Promise((resolve) => socket.once('connect', resolve));
  }
  return {
    port,
    close: () => {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One line of the crawler's JSON log. */
export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly url?: string;
  readonly reason?: string;
  readonly code?: string;
  readonly [key: string]: unknown;
}

/** The JSON log lines a crawl wrote to stderr. */
export function logLines(stderr: string): LogLine[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
}

/** The log lines about `url` (exactly, or any URL starting with it when `prefix`). */
export function linesAbout(lines: readonly LogLine[], url: string, prefix = false): LogLine[] {
  return lines.filter((l) => typeof l.url === 'string' && (prefix ? l.url.startsWith(url) : l.url === url));
}

/** The objects of a jsonl index file. */
export async function readJsonl(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** stats.json of a crawl, with the counters the hostile tests read. */
export interface HostileStats {
  readonly documents: number;
  readonly retries: number;
  readonly failures: number;
  readonly redirects: number;
  readonly failuresByCode: Record<string, number>;
  readonly droppedByReason: Record<string, number>;
  readonly peakRssMb: number;
  readonly completed: boolean;
}

/** Reads `REPOSITORY/stats.json`. */
export async function readHostileStats(repository: string): Promise<HostileStats> {
  return JSON.parse(await readFile(`${repository}/stats.json`, 'utf8')) as HostileStats;
}

/** The pages of good.test (and other.test) in fixtures/hostile: what every crawl that reaches them must record. */
export const GOOD_PAGES: readonly string[] = ['/', '/a.html', '/b.html', '/c.html'];

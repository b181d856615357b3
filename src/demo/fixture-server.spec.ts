import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP/1.1 request: the path goes out exactly as given (no URL parsing, no dot-segment removal). */
function send(port: number, host: string, path: string, headers: OutgoingHttpHeaders = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, method, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    })
      .on('error', reject)
      .end();
  });
}

const MTIME = new Date('2024-01-02T03:04:05Z');
const FILES: Record<string, string> = {
  'a.test/index.html': '<title>A home</title><a href="http://B.test/x.html">b</a> <a href="http://b.test:80/">b80</a> <a href="http://b.test:8080/">other port</a> <a href="http://b.testing/">not b</a>',
  'a.test/page.htm': '<title>htm</title>',
  'a.test/docs/index.html': '<title>docs</title>',
  'a.test/p': 'plain p',
  'a.test/p%3Fx=1': 'p with x=1',
  'a.test/news': '<title>news</title>',
  'a.test/data.bin': 'http://b.test/ in a binary',
  'a.test/_headers.json': JSON.stringify({
    '/news': { 'Content-Type': 'text/html', 'Last-Modified': null },
    '/greek.html': { 'Content-Type': 'text/html; charset=iso-8859-7' },
    '/moved': { status: 301, Location: '/page.htm' },
    '/away': { status: 302, Location: 'http://b.test/x.html' },
    '/gone.html': { status: 410 },
    '/noindex.html': { 'X-Robots-Tag': 'noindex' },
    '/p?x=2': { 'X-Query': 'two' },
  }),
  'a.test/greek.html': '<title>greek</title>',
  'a.test/noindex.html': '<title>noindex</title>',
  'b.test/index.html': '<title>B home</title>',
  'b.test/x.html': 'x',
  'bad.test/_headers.json': '{"/x": {"status": "oops"}}',
  'secret.txt': 'TOP SECRET root file',
};

let root: string;
let server: FixtureServer;
const get = (host: string, path: string, headers?: OutgoingHttpHeaders, method?: string): Promise<Reply> =>
  send(server.port, host, path, headers, method);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'fixture-server-'));
  for (const [name, text] of Object.entries(FILES)) {
    const file = join(root, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    await utimes(file, MTIME, MTIME);
  }
  server = await startFixtureServer({
    root,
    hooks: {
      handle: (_req, res, at) => {
        if (at.path === '/boom') {
          res.writeHead(503, { 'Retry-After': '1' }).end('busy');
          return true;
        }
        if (at.path === '/slow.html') {
          setTimeout(() => res.end('finally'), 60);
          return true;
        }
        return false;
      },
    },
  });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('startFixtureServer', () => {
  it('serves each host from its own folder on one port, by the Host header without port or case', async () => {
    expect((await get('a.test', '/')).body).toContain('A home');
    expect((await get('B.TEST:1234', '/')).body).toContain('B home');
    expect(server.url('b.test', 'x.html')).toBe(`http://b.test:${server.port}/x.html`);
  });

  it('answers 404 with a small HTML page for unknown hosts and missing files', async () => {
    for (const [host, path] of [['nowhere.test', '/'], ['a.test', '/missing.html']] as const) {
      const r = await get(host, path);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('<title>404 Not Found</title>');
    }
  });

  it('sends Content-Type by extension without a charset, Last-Modified from the mtime, Date and an ETag', async () => {
    const r = await get('a.test', '/page.htm');
    expect(r.headers['content-type']).toBe('text/html');
    expect(r.headers['last-modified']).toBe('Tue, 02 Jan 2024 03:04:05 GMT');
    expect(Date.parse(r.headers.date ?? '')).toBeGreaterThan(MTIME.getTime());
    expect(r.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect((await get('a.test', '/data.bin')).headers['content-type']).toBe('application/octet-stream');
  });

  it('serves index.html for a folder and redirects a folder named without its slash', async () => {
    expect((await get('a.test', '/docs/')).body).toContain('docs');
    const r = await get('a.test', '/docs?v=1');
    expect([r.status, r.headers.location]).toEqual([301, '/docs/?v=1']);
    expect((await get('a.test', '/page.htm/')).status).toBe(404);
  });

  it('serves p%3Fquery for /p?query when that file exists, else p', async () => {
    expect((await get('a.test', '/p?x=1')).body).toBe('p with x=1');
    expect((await get('a.test', '/p?x=3')).body).toBe('plain p');
    expect((await get('a.test', '/p')).body).toBe('plain p');
  });

  it('applies _headers.json: charsets, removed headers, statuses without files, keys with a query', async () => {
    expect((await get('a.test', '/greek.html')).headers['content-type']).toBe('text/html; charset=iso-8859-7');
    const news = await get('a.test', '/news');
    expect([news.status, news.headers['content-type'], news.headers['last-modified']]).toEqual([200, 'text/html', undefined]);
    expect((await get('a.test', '/noindex.html')).headers['x-robots-tag']).toBe('noindex');
    const moved = await get('a.test', '/moved');
    expect([moved.status, moved.headers.location]).toEqual([301, '/page.htm']);
    expect(moved.body).toContain('<a href="/page.htm">');
    expect((await get('a.test', '/gone.html')).status).toBe(410);
    expect((await get('a.test', '/p?x=2')).headers['x-query']).toBe('two');
    expect((await get('a.test', '/p?x=1')).headers['x-query']).toBeUndefined();
    expect((await get('a.test', '/_headers.json')).status).toBe(404);
  });

  it('answers 500 naming the file when a _headers.json is invalid', async () => {
    const r = await get('bad.test', '/x');
    expect(r.status).toBe(500);
    expect(r.body).toContain('_headers.json');
  });

  it('answers 304 to a matching If-None-Match or an If-Modified-Since not before the mtime', async () => {
    const { headers } = await get('a.test', '/page.htm');
    const etag = headers.etag ?? '';
    const lm = headers['last-modified'] ?? '';
    const notModified = await get('a.test', '/page.htm', { 'if-none-match': `"nope", W/${etag}` });
    expect([notModified.status, notModified.body, notModified.headers.etag]).toEqual([304, '', etag]);
    expect((await get('a.test', '/page.htm', { 'if-modified-since': lm })).status).toBe(304);
    expect((await get('a.test', '/page.htm', { 'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT' })).status).toBe(200);
    // If-None-Match decides when both are present (RFC 9110 §13.2.2)
    expect((await get('a.test', '/page.htm', { 'if-none-match': '"nope"', 'if-modified-since': lm })).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body, and other methods with 405', async () => {
    const full = await get('a.test', '/page.htm');
    const head = await get('a.test', '/page.htm', {}, 'HEAD');
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', full.headers['content-length']]);
    const post = await get('a.test', '/page.htm', {}, 'POST');
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
  });

  it('adds its port to absolute links to served hosts, and only in text', async () => {
    const home = (await get('a.test', '/')).body;
    const p = server.port;
    expect(home).toContain(`href="http://B.test:${p}/x.html"`);
    expect(home).toContain(`href="http://b.test:${p}/"`);
    expect(home).toContain('href="http://b.test:8080/"');
    expect(home).toContain('href="http://b.testing/"');
    expect((await get('a.test', '/data.bin')).body).toBe('http://b.test/ in a binary');
    expect((await get('a.test', '/away')).headers.location).toBe(`http://b.test:${p}/x.html`);
  });

  it('serves the bytes unchanged when portInLinks is false', async () => {
    const plain = await startFixtureServer({ root, portInLinks: false });
    try {
      expect((await send(plain.port, 'a.test', '/')).body).toBe(FILES['a.test/index.html']);
    } finally {
      await plain.close();
    }
  });

  it('lets a hook take over a request, and logs its status and timing', async () => {
    server.requests.length = 0;
    const boom = await get('a.test', '/boom');
    expect([boom.status, boom.body]).toEqual([503, 'busy']);
    expect((await get('a.test', '/slow.html')).body).toBe('finally');
    const [first, second] = server.requests;
    expect(first?.status).toBe(503);
    expect((second?.end ?? 0) - (second?.start ?? 0)).toBeGreaterThanOrEqual(50);
  });

  it('logs every request in order of arrival with host, path and query, method, headers and status', async () => {
    server.requests.length = 0;
    await get('A.test:80', '/p?x=1', { 'user-agent': 'tarantula/0.1.0' });
    await get('b.test', '/missing', {}, 'HEAD');
    expect(server.requests.map((r) => [r.host, r.path, r.method, r.status])).toEqual([
      ['a.test', '/p?x=1', 'GET', 200],
      ['b.test', '/missing', 'HEAD', 404],
    ]);
    const [a, b] = server.requests;
    expect(a?.headers['user-agent']).toBe('tarantula/0.1.0');
    expect(a!.start).toBeLessThanOrEqual(a!.end);
    expect(a!.end).toBeLessThanOrEqual(b!.start);
    expect(Math.abs(a!.start - Date.now())).toBeLessThan(60_000);
  });

  it('never serves a file outside its host folder, however the path or Host is encoded', async () => {
    const attempts: Array<[string, string]> = [
      ['a.test', '/../secret.txt'],
      ['a.test', '/docs/../../secret.txt'],
      ['a.test', '/%2e%2e/secret.txt'],
      ['a.test', '/%2E%2E/%2e%2E/secret.txt'],
      ['a.test', '/..%2fsecret.txt'],
      ['a.test', '/%2e%2e%2fsecret.txt'],
      ['a.test', '/docs%2f..%2f..%2fsecret.txt'],
      ['a.test', '/..%5csecret.txt'],
      ['a.test', '/..\\secret.txt'],
      ['a.test', '/%2e%2e%00/secret.txt'],
      ['a.test', '/%zz/secret.txt'],
      ['a.test', '/../b.test/x.html'],
      ['a.test', 'http://../secret.txt'],
      ['..', '/secret.txt'],
      ['..:80', '/secret.txt'],
      ['.', '/secret.txt'],
      ['a.test/..', '/secret.txt'],
    ];
    for (const [host, path] of attempts) {
      const r = await get(host, path);
      expect([path, r.status]).toEqual([path, expect.toSatisfy((s: number) => s === 400 || s === 404)]);
      expect(r.body).not.toContain('TOP SECRET');
      expect(r.body).not.toBe('x');
    }
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStats } from './support/e2e-web.js';
import { resolveFlags, runCli, type CliResult } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

/**
 * A broad crawl in small: 300 hosts, each visited three times (its `/`, then `/a.html`, then
 * `/b.html`, each wave after every other host's), with `idle-hosts 4`, so that each host's
 * connections are closed and its robots.txt rules put away between visits. Odd hosts disallow
 * `/private/`; even hosts have no robots.txt.
 */
const HOSTS = Array.from({ length: 300 }, (_, i) => `h${i}.many.test`);
const HUB = 'many.test';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let server: Server;
let run: CliResult;
let repo: string;
/** `host path` → times requested. */
const requests = new Map<string, number>();
let connections = 0;

/** A page of its own (a copy of another's would be a duplicate, its links not followed). */
const page = (key: string, links: readonly string[]): string => `<!doctype html><title>${key}</title>${links.map((l) => `<a href="${l}">x</a>`).join('')}`;

beforeAll(async () => {
  tmp = await tempDir();
  repo = join(tmp.dir, 'repo');
  server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    const key = `${host} ${path}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    const index = HOSTS.indexOf(host);
    if (path === '/robots.txt') {
      if (index % 2 === 1) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      return void res.writeHead(404).end();
    }
    res.setHeader('content-type', 'text/html');
    const port = (server.address() as AddressInfo).port;
    if (host === HUB) return void res.end(page(key, HOSTS.map((h) => `http://${h}:${port}/`)));
    if (path === '/') return void res.end(page(key, ['/a.html', '/private/x.html']));
    if (path === '/a.html') return void res.end(page(key, ['/b.html']));
    res.end(page(key, []));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  run = await runCli(
    ['crawl', '--seed', `http://${HUB}:${port}/`, ...resolveFlags([HUB, ...HOSTS], port), '--repository', repo, '--scope', 'domain-scope',
      '--threads', '8', '--idle-hosts', '4', '--min-delay', '0', '--delay-factor', '0', '--log-level', '0'],
    { cwd: tmp.dir, timeoutMs: 180_000 },
  );
}, 200_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((ok) => server?.close(ok));
  await tmp?.remove();
});

describe('a crawl of many hosts, their state put away between visits (idle-hosts 4)', () => {
  it('ends, every page fetched', async () => {
    expect(run.code, run.stderr).toBe(0);
    const stats = await readStats(repo);
    expect(stats.documents).toBe(1 + 300 * 3 + 150);
  });

  it('fetches every page once, and robots.txt once a host', () => {
    for (const host of [HUB, ...HOSTS]) expect(requests.get(`${host} /robots.txt`), host).toBe(1);
    for (const [key, times] of requests) expect(times, key).toBe(1);
    expect(requests.size).toBe(301 + 1 + 300 * 3 + 150);
  });

  it('still obeys the robots.txt of a host it came back to', () => {
    HOSTS.forEach((host, i) => expect(requests.has(`${host} /private/x.html`), host).toBe(i % 2 === 0));
  });

  it('closed the connections of idle hosts, and opened them again when it came back', () => {
    // Each host's three visits came after the others' (its connections closed between them): a connection each at least.
    expect(connections).toBeGreaterThanOrEqual(300 * 3);
  });
});

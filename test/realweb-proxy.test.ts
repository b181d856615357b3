import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, readStats } from './support/e2e-web.js';
import { startForwardProxy, type ForwardProxy } from './support/forward-proxy.js';
import { runCli } from './support/run-cli.js';
import { makeTestCa } from './support/test-certificates.js';
import { tempDir } from './support/temp-dir.js';

interface Arrival {
  readonly host: string;
  readonly path: string;
  /** Set by the test proxy: the request came through it. */
  readonly via: string | undefined;
}

const arrivals: Arrival[] = [];
function site(req: IncomingMessage, res: ServerResponse): void {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  arrivals.push({ host, path: req.url ?? '', via: req.headers.via });
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${host}${req.url}</title><a href="/page.html">page</a> <a href="/private/x.html">private</a>`);
}

let tmp: Awaited<ReturnType<typeof tempDir>>;
let plain: Server;
let secure: HttpsServer;
let plainPort: number;
let securePort: number;
let caFile: string;
let proxy: ForwardProxy;
beforeAll(async () => {
  tmp = await tempDir();
  const ca = makeTestCa(tmp.dir);
  caFile = ca.caFile;
  plain = createServer(site).listen(0, '127.0.0.1');
  secure = createHttpsServer(ca.issue(['secure.test']), site).listen(0, '127.0.0.1');
  await Promise.all([once(plain, 'listening'), once(secure, 'listening')]);
  plainPort = (plain.address() as AddressInfo).port;
  securePort = (secure.address() as AddressInfo).port;
  proxy = await startForwardProxy((host) => (host === 'secure.test' ? securePort : ['plain.test', 'direct.test'].includes(host) ? plainPort : undefined));
});
afterAll(async () => {
  await proxy.close();
  plain.closeAllConnections();
  plain.close();
  secure.close();
  await tmp.remove();
});
beforeEach(() => {
  arrivals.length = 0;
  proxy.requests.length = 0;
});

/** No proxy variable of the test machine leaks into a run: each names its own. */
const NO_PROXY_ENV = Object.fromEntries(['http_proxy', 'https_proxy', 'all_proxy', 'no_proxy'].flatMap((n) => [[n, ''], [n.toUpperCase(), '']]));

let runs = 0;
async function crawl(env: Record<string, string>, flags: readonly string[] = []) {
  const repo = join(tmp.dir, `repo-${++runs}`);
  const hosts = [['plain.test', plainPort], ['direct.test', plainPort], ['secure.test', securePort]] as const;
  const args = ['crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--repository', repo, '--ca-file', caFile, '--log-level', '0', '--max-retries', '0',
    ...hosts.flatMap(([h, p]) => ['--seed', `${h === 'secure.test' ? 'https' : 'http'}://${h}:${p}/`, '--resolve', `${h}:${p}:127.0.0.1`]), ...flags];
  const run = await runCli(args, { cwd: tmp.dir, env: { ...NO_PROXY_ENV, ...env } });
  return { ...run, stats: await readStats(repo) };
}

const through = (host: string) => arrivals.filter((a) => a.host === host && a.via === '1.1 test-proxy').map((a) => a.path);
const direct = (host: string) => arrivals.filter((a) => a.host === host && a.via === undefined).map((a) => a.path);

describe('proxies', () => {
  it('sends plain http as absolute-form GETs and https through CONNECT, honouring NO_PROXY and robots.txt', async () => {
    const run = await crawl({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost, .direct.test' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stats.documents).toBe(6);
    expect(run.stats.droppedByReason['robots']).toBe(3);
    expect(through('plain.test').sort()).toEqual(['/', '/page.html', '/robots.txt']);
    expect(proxy.requests.filter((r) => r.method === 'GET').map((r) => `${r.host}${r.path}`).sort()).toEqual(['plain.test/', 'plain.test/page.html', 'plain.test/robots.txt']);
    // The tunnel carries TLS end to end: the https server sees no Via, but every connection to it was a CONNECT.
    expect(proxy.requests.filter((r) => r.method === 'CONNECT').map((r) => `${r.host}:${r.port}`)).toContain(`secure.test:${securePort}`);
    expect(direct('secure.test').sort()).toEqual(['/', '/page.html', '/robots.txt']);
    expect(direct('direct.test').sort()).toEqual(['/', '/page.html', '/robots.txt']);
    expect(proxy.requests.some((r) => r.host === 'direct.test')).toBe(false);
  });

  it('reads https_proxy for https URLs only, in lower case, as curl does', async () => {
    const run = await crawl({ https_proxy: proxy.url });
    expect(run.stats.documents).toBe(6);
    expect(proxy.requests.length).toBeGreaterThan(0);
    expect(proxy.requests.every((r) => r.method === 'CONNECT' && r.host === 'secure.test')).toBe(true);
    expect(through('plain.test')).toEqual([]);
  });

  it('sends everything through --proxy, over the environment', async () => {
    const other = 'http://127.0.0.1:9'; // the discard port: a run that used it would fetch nothing
    const run = await crawl({ HTTP_PROXY: other, HTTPS_PROXY: other }, ['--proxy', proxy.url]);
    expect(run.stats.documents).toBe(6);
    expect(through('plain.test').sort()).toEqual(['/', '/page.html', '/robots.txt']);
    expect(through('direct.test').sort()).toEqual(['/', '/page.html', '/robots.txt']);
    expect(proxy.requests.some((r) => r.method === 'CONNECT' && r.host === 'secure.test')).toBe(true);
  });
});

import { once } from 'node:events';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, readStats } from './support/e2e-web.js';
import { runCli, type CliResult } from './support/run-cli.js';
import { makeTestCa, selfSigned, type KeyPair } from './support/test-certificates.js';
import { tempDir } from './support/temp-dir.js';

interface Site {
  readonly host: string;
  readonly port: number;
  /** TCP connections accepted: a retried handshake would make more than one. */
  connections: number;
  /** The HTTP version of each request answered. */
  readonly versions: string[];
  /** The most requests answered at once. */
  maxInFlight: number;
}

/** Three pages; each answer waits a little so that requests allowed to overlap do. */
function pages(site: Site, slowMs: number) {
  let inFlight = 0;
  return (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
    site.versions.push(req.httpVersion);
    site.maxInFlight = Math.max(site.maxInFlight, ++inFlight);
    const links = ['/a.html', '/b.html', '/c.html'].map((l) => `<a href="${l}">${l}</a>`).join(' ');
    setTimeout(() => {
      inFlight--;
      if (req.url === '/robots.txt') (res as ServerResponse).writeHead(404).end();
      else (res as ServerResponse).writeHead(200, { 'content-type': 'text/html' }).end(`<title>${site.host}${req.url}</title>${links}`);
    }, slowMs);
  };
}

const servers: (HttpsServer | Http2SecureServer)[] = [];
async function serve(host: string, pair: KeyPair, h2 = false): Promise<Site> {
  const site: Site = { host, port: 0, connections: 0, versions: [], maxInFlight: 0 };
  const server = h2 ? createSecureServer({ ...pair, allowHTTP1: true }, pages(site, 30)) : createHttpsServer(pair, pages(site, 0));
  server.on('connection', () => site.connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return Object.assign(site, { port: (server.address() as AddressInfo).port });
}

let tmp: Awaited<ReturnType<typeof tempDir>>;
let caFile: string;
let secure: Site, self: Site, expired: Site, wrong: Site, h2: Site;
beforeAll(async () => {
  tmp = await tempDir();
  const ca = makeTestCa(tmp.dir);
  caFile = ca.caFile;
  secure = await serve('secure.test', ca.issue(['secure.test']));
  self = await serve('self.test', selfSigned(tmp.dir, 'self.test'));
  expired = await serve('expired.test', ca.issue(['expired.test'], { start: '20200101000000Z', end: '20200102000000Z' }));
  wrong = await serve('wrong.test', ca.issue(['other.test']));
  h2 = await serve('h2.test', ca.issue(['h2.test']), true);
});
afterAll(async () => {
  for (const s of servers) s.close();
  await tmp.remove();
});

let runs = 0;
/** Crawls https://SITE/ with its name resolved to the server, three retries allowed. */
async function crawl(site: Site, flags: readonly string[] = []): Promise<CliResult & { stats: Awaited<ReturnType<typeof readStats>> }> {
  const repo = join(tmp.dir, `repo-${++runs}`);
  const args = ['crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--seed', `https://${site.host}:${site.port}/`, '--resolve', `${site.host}:${site.port}:127.0.0.1`,
    '--repository', repo, '--max-retries', '3', '--log-level', '0', ...flags];
  const result = await runCli(args, { cwd: tmp.dir });
  return { ...result, stats: await readStats(repo) };
}

describe('TLS', () => {
  it('trusts a server whose CA is given with --ca-file', async () => {
    const run = await crawl(secure, ['--ca-file', caFile]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stats.documents).toBe(4);
  });

  it.each([
    ['an unknown CA', () => secure, 'tls-unknown-ca', []],
    ['a self-signed certificate', () => self, 'tls-self-signed', []],
    ['an expired certificate', () => expired, 'tls-cert-expired', ['--ca-file']],
    ['a certificate for another name', () => wrong, 'tls-hostname-mismatch', ['--ca-file']],
  ] as const)('fails the page on %s with its own code, once, without retrying', async (_what, site, code, flags) => {
    const before = site().connections;
    const run = await crawl(site(), flags.length ? ['--ca-file', caFile] : []);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stats.documents).toBe(0);
    expect(run.stats.failuresByCode).toEqual({ [code]: 1 });
    expect(run.stats.retries).toBe(0);
    expect(site().connections - before).toBe(1);
    expect(run.stderr).toContain(code);
  });

  it('crawls a self-signed server with --insecure, and warns at start that certificates are not verified', async () => {
    const run = await crawl(self, ['--insecure']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stats.documents).toBe(4);
    expect(run.stderr).toMatch(/"level":40.*insecure: TLS certificates are not verified/);
  });
});

describe('HTTP/2', () => {
  it('speaks HTTP/2 with --http2, never more than max-per-host requests at once', async () => {
    const before = h2.versions.length;
    h2.maxInFlight = 0;
    const run = await crawl(h2, ['--ca-file', caFile, '--http2', '--threads', '8', '--max-per-host', '2']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stats.documents).toBe(4);
    expect(new Set(h2.versions.slice(before))).toEqual(new Set(['2.0']));
    expect(h2.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('speaks HTTP/1.1 to the same server without it', async () => {
    const before = h2.versions.length;
    const run = await crawl(h2, ['--ca-file', caFile]);
    expect(run.stats.documents).toBe(4);
    expect(new Set(h2.versions.slice(before))).toEqual(new Set(['1.1']));
  });
});

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig, type ConfigOverrides } from '../src/config/build-config.js';
import { runCrawl } from '../src/app/run-crawl.js';
import { createLogger, flushLogger } from '../src/log/create-logger.js';
import { startForwardProxy, type ForwardProxy } from './support/forward-proxy.js';
import { recordingNetwork, type NetworkRecord } from './support/recording-network.js';
import { tempDir } from './support/temp-dir.js';

/** Links to every blocked class as a literal address; the WHATWG parser turns the last three into 127.0.0.1. */
const LITERALS: Record<string, string> = {
  'private 10/8': 'http://10.0.0.5/admin',
  'private, behind userinfo': 'http://user@10.0.0.5/x',
  'private 172.16/12': 'http://172.16.0.1/',
  'private 192.168/16': 'http://192.168.1.1/',
  'loopback': 'http://127.0.0.1:PORT/',
  'loopback IPv6': 'http://[::1]:PORT/',
  'cloud metadata (link-local)': 'http://169.254.169.254/latest/meta-data/',
  'link-local IPv6': 'http://[fe80::1]/',
  'unique local IPv6': 'http://[fd00::1]/',
  'CGNAT': 'http://100.64.0.1/',
  'multicast': 'http://224.0.0.1/',
  'multicast IPv6': 'http://[ff02::1]/',
  'unspecified': 'http://0.0.0.0:PORT/',
  'unspecified IPv6': 'http://[::]/',
  'documentation': 'http://192.0.2.1/',
  'documentation IPv6': 'http://[2001:db8::1]/',
  'benchmark': 'http://198.18.0.1/',
  'reserved': 'http://240.0.0.1/',
  'broadcast': 'http://255.255.255.255/',
  'IPv4-mapped private': 'http://[::ffff:10.0.0.5]/',
  'IPv4-mapped loopback': 'http://[::ffff:127.0.0.1]:PORT/',
  'decimal loopback': 'http://2130706433:PORT/',
  'hex loopback': 'http://0x7f.0.0.1:PORT/',
  'octal loopback': 'http://0177.0.0.1:PORT/',
};

/** Host names the test's DNS answers with blocked addresses (DNS rebinding). */
const DNS: Record<string, readonly string[]> = {
  'rebind.test': ['10.0.0.5'],
  'metadata.test': ['169.254.169.254'],
  'local.test': ['127.0.0.1'],
  'cgnat.test': ['100.64.1.2'],
  'six.test': ['fd12:3456::1'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.test': ['2002:c0a8:101::1'],
  'two-faced.test': ['10.0.0.5', '192.168.1.1'],
};
/** A name only a redirect leads to: its first request is the redirect target's robots.txt. */
const HIDDEN: Record<string, readonly string[]> = { 'hidden.test': ['10.9.8.7'] };

interface Seen {
  readonly host: string;
  readonly path: string;
}

let server: Server;
let port: number;
const seen: Seen[] = [];
let tmp: Awaited<ReturnType<typeof tempDir>>;

const nameLinks = (): string[] => Object.keys(DNS).map((name) => `http://${name}:${port}/`);
const literalLinks = (): string[] => Object.values(LITERALS).map((l) => l.replace('PORT', String(port)));

beforeAll(async () => {
  tmp = await tempDir();
  server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    seen.push({ host, path: req.url ?? '' });
    if (req.url === '/go-metadata') return res.writeHead(302, { Location: `http://metadata.test:${port}/latest/` }).end();
    if (req.url === '/go-private') return res.writeHead(302, { Location: 'http://10.0.0.5/' }).end();
    if (req.url === '/go-hidden') return res.writeHead(301, { Location: `http://hidden.test:${port}/x` }).end();
    if (req.url !== '/') return res.writeHead(404).end();
    const links = [...literalLinks(), ...nameLinks(), '/go-metadata', '/go-private', '/go-hidden'];
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<title>Links</title>${links.map((l) => `<a href="${l}">x</a>`).join('\n')}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await tmp.remove();
});

interface Run {
  readonly record: NetworkRecord;
  readonly stats: { droppedByReason: Record<string, number>; documents: number; failures: number; retries: number };
  readonly log: Record<string, unknown>[];
  readonly seen: Seen[];
}

/** Crawls www.public.test (pinned to the server by a resolve entry) on the recording network. */
async function crawlOn(name: string, overrides: ConfigOverrides = {}): Promise<Run> {
  const repository = join(tmp.dir, name);
  const logFile = join(tmp.dir, `${name}.log`);
  const { config } = buildConfig([], 'test', {
    startingPoints: [`http://www.public.test:${port}/`],
    resolve: [{ host: 'www.public.test', port, address: '127.0.0.1' }],
    scope: 'free-spanning', repository, logFile, logLevel: 2, requestsInFlight: 4, maxPerHost: 1, maxRetries: 0,
    minDelayMs: 0, maxDelayMs: 0, delayFactor: 0, sitemaps: false,
    ...overrides,
  });
  const log = createLogger(config);
  const { record, hooks } = recordingNetwork({ ...DNS, ...HIDDEN });
  const before = seen.length;
  await runCrawl(config, log, { stdout: new PassThrough(), network: hooks });
  await flushLogger(log);
  const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const stats = JSON.parse(await readFile(join(repository, 'stats.json'), 'utf8')) as Run['stats'];
  return { record, stats, log: lines, seen: seen.slice(before) };
}

const normalized = (link: string): string => new URL(link).href;
/**
 * Drops the guarded crawl makes: each literal link once (a page lists a URL once, and the three
 * loopback spellings are one URL), the three redirect targets, and one request per name (its
 * robots.txt fetch is refused first).
 */
const PRIVATE_DROPS = (): number => new Set(literalLinks().map(normalized)).size + 3 + Object.keys(DNS).length;

describe('the SSRF guard (default: allow-private-addresses = false)', () => {
  let run: Run;
  beforeAll(async () => {
    run = await crawlOn('guarded');
  });

  it('connects to nothing but the resolve entry of the seed host', () => {
    expect(new Set(run.record.connects)).toEqual(new Set(['127.0.0.1']));
    expect(new Set(run.seen.map((s) => s.host))).toEqual(new Set(['www.public.test']));
  });

  it.each(Object.entries(LITERALS))('drops a link to a literal %s address at admission, without a lookup', (_kind, link) => {
    const url = normalized(link.replace('PORT', String(port)));
    expect(run.log.filter((l) => l['url'] === url && l['reason'] === 'private-address').length).toBeGreaterThan(0);
  });

  it.each(Object.entries(DNS))('drops %s (DNS answers %s) at connect time, and logs it as a warning', (name, addresses) => {
    const line = run.log.find((l) => l['reason'] === 'private-address' && String(l['url']).startsWith(`http://${name}:`));
    expect(line, name).toBeDefined();
    expect(line!['level']).toBe(40);
    expect(String(line!['msg'])).toContain(`resolves to ${addresses[0]}:`);
  });

  it('follows no redirect into a private address, to a name or to a literal', () => {
    expect(run.seen.map((s) => s.path)).toEqual(expect.arrayContaining(['/go-metadata', '/go-private', '/go-hidden']));
    expect(run.record.lookups).toContain('hidden.test');
    expect(run.log.some((l) => l['reason'] === 'private-address' && l['url'] === `http://hidden.test:${port}/x` && l['level'] === 40)).toBe(true);
    expect(run.log.some((l) => l['reason'] === 'private-address' && l['url'] === `http://metadata.test:${port}/latest/`)).toBe(true);
    expect(run.log.some((l) => l['reason'] === 'private-address' && l['url'] === 'http://10.0.0.5/')).toBe(true);
  });

  it('counts every drop as private-address in the stats, none as a failure', () => {
    expect(run.stats.droppedByReason['private-address']).toBe(PRIVATE_DROPS());
    expect(run.stats.failures).toBe(0);
    expect(run.stats.retries).toBe(0);
  });
});

describe('allow-private-addresses = true', () => {
  let run: Run;
  beforeAll(async () => {
    run = await crawlOn('allowed', { allowPrivateAddresses: true });
  });

  it('connects where the names and literals lead (the test network refuses all but loopback)', () => {
    expect(run.record.connects).toEqual(expect.arrayContaining(['10.0.0.5', '169.254.169.254', 'fd12:3456::1', '127.0.0.1']));
    expect(run.record.connects.filter((a) => !a.startsWith('127.')).length).toBeGreaterThan(0);
    expect(run.seen.map((s) => s.host)).toEqual(expect.arrayContaining(['local.test', '127.0.0.1']));
    expect(run.stats.droppedByReason['private-address']).toBeUndefined();
  });
});

describe('the SSRF guard behind a proxy', () => {
  let proxy: ForwardProxy;
  let run: Run;
  beforeAll(async () => {
    proxy = await startForwardProxy(() => port);
    run = await crawlOn('proxied', { proxy: proxy.url });
  });
  afterAll(() => proxy.close());

  it('judges the target before the request: the proxy is asked for the seed host only', () => {
    expect(new Set(proxy.requests.map((r) => r.host))).toEqual(new Set(['www.public.test']));
    expect(run.stats.droppedByReason['private-address']).toBe(PRIVATE_DROPS());
    expect(run.record.lookups).toEqual(expect.arrayContaining(Object.keys(DNS)));
  });
});

describe('a seed whose own host is a private address', () => {
  let run: Run;
  beforeAll(async () => {
    run = await crawlOn('seed-host', { startingPoints: [`http://127.0.0.1:${port}/`], resolve: [] });
  });

  it('is crawled (an intranet crawl started on purpose), its links elsewhere still refused', () => {
    expect(run.stats.documents).toBeGreaterThan(0);
    expect(run.seen.filter((s) => s.path === '/').map((s) => s.host)).toEqual(['127.0.0.1']);
    expect(new Set(run.record.connects)).toEqual(new Set(['127.0.0.1']));
    // The literal link to the seed's own address is the seed itself: every other drop stays.
    expect(run.stats.droppedByReason['private-address']).toBe(PRIVATE_DROPS() - 1);
    expect(run.seen.some((s) => s.host === 'local.test')).toBe(false);
  });
});

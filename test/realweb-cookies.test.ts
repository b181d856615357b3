import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_DELAYS, NO_SITEMAPS, readStats } from './support/e2e-web.js';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli, type CliOptions } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { readWarc } from './support/warc-files.js';

interface Arrival {
  readonly path: string;
  readonly cookie: string | undefined;
  readonly token: string | undefined;
}

const arrivals: Arrival[] = [];
const page = (title: string, link: string) => `<title>${title}</title><a href="${link}">next</a>`;

/** A site whose members' pages need the session cookie its home page sets. */
function loginSite(req: { url?: string; headers: Record<string, string | string[] | undefined> }, res: import('node:http').ServerResponse): void {
  const cookie = req.headers['cookie'] as string | undefined;
  arrivals.push({ path: req.url ?? '', cookie, token: req.headers['x-token'] as string | undefined });
  const member = cookie?.split('; ').includes('session=s3cret') ?? false;
  switch (req.url) {
    case '/robots.txt':
      return void res.writeHead(404).end();
    case '/':
      res.setHeader('Set-Cookie', ['session=s3cret; Path=/; HttpOnly', 'theme=dark; Path=/; Max-Age=86400', 'stolen=1; Domain=other.test; Path=/']);
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('Login', '/members/'));
    case '/members/':
    case '/members/deep.html':
      if (!member) return void res.writeHead(403).end();
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('Members', '/members/deep.html'));
    default:
      res.writeHead(404).end();
  }
}

let tmp: Awaited<ReturnType<typeof tempDir>>;
let server: Server;
let port: number;
beforeAll(async () => {
  tmp = await tempDir();
  server = createServer(loginSite).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await tmp.remove();
});
beforeEach(() => {
  arrivals.length = 0;
});

async function crawl(repo: string, flags: readonly string[] = [], opts: CliOptions = {}) {
  const args = ['crawl', ...NO_DELAYS, ...NO_SITEMAPS, '--seed', `http://login.test:${port}/`, '--resolve', `login.test:${port}:127.0.0.1`,
    '--repository', join(tmp.dir, repo), '--log-level', '0', ...flags];
  const run = await runCli(args, { cwd: tmp.dir, ...opts });
  return { ...run, stats: await readStats(join(tmp.dir, repo)) };
}

describe('cookies', () => {
  it('are off by default: no Cookie header is ever sent, and the members’ pages answer 403', async () => {
    const run = await crawl('no-cookies', ['--max-depth', '1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stats.documents).toBe(1);
    expect(run.stats.byStatus).toEqual({ '200': 1, '403': 1 });
    expect(arrivals.every((a) => a.cookie === undefined)).toBe(true);
  });

  it('with --cookies, are kept from the login page on (RFC 6265: not another domain’s), and saved in the crawl state', async () => {
    const run = await crawl('jar', ['--cookies']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stats.documents).toBe(3);
    const after = arrivals.filter((a) => a.path.startsWith('/members/'));
    expect(after.map((a) => a.cookie)).toEqual(['session=s3cret; theme=dark', 'session=s3cret; theme=dark']);
    expect(arrivals.some((a) => a.cookie?.includes('stolen'))).toBe(false);
    const saved = await readFile(join(tmp.dir, 'jar', '.tarantula', 'cookies.json'), 'utf8');
    expect(saved).toContain('s3cret');
  });

  it('survive into the next run of the same crawl: its very first request carries them', async () => {
    const run = await crawl('jar', ['--cookies']);
    expect(run.code, run.stderr).toBe(0);
    expect(arrivals[0]).toEqual({ path: '/robots.txt', cookie: 'session=s3cret; theme=dark', token: undefined });
  });

  it('survive an interrupted crawl: the resumed run sends them from its first request', async () => {
    let child: ChildProcess | undefined;
    // Three seconds between requests: the stop comes once the jar is saved (within a second of the login
    // page), while nothing is in flight and the members' pages are pending.
    const interrupted = crawl('resume', ['--cookies', '--min-delay', '3000', '--max-delay', '3000'], { onSpawn: (c) => (child = c) });
    const jar = join(tmp.dir, 'resume', '.tarantula', 'cookies.json');
    for (const end = Date.now() + 20_000; !(await readFile(jar, 'utf8').catch(() => '')).includes('s3cret'); await sleep(50)) {
      if (Date.now() > end) throw new Error('the crawl never saved the login cookie');
    }
    child!.kill('SIGINT');
    expect((await interrupted).code).toBe(130);
    expect(arrivals.some((a) => a.path.startsWith('/members/'))).toBe(false);
    arrivals.length = 0;
    const resumed = await crawl('resume', ['--cookies']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(arrivals.map((a) => [a.path, a.cookie])).toEqual([
      ['/robots.txt', 'session=s3cret; theme=dark'],
      ['/members/', 'session=s3cret; theme=dark'],
      ['/members/deep.html', 'session=s3cret; theme=dark'],
    ]);
  });
});

describe('cookies in the WARC', () => {
  it('are in the request records as they were sent: the Cookie header the jar added', async () => {
    const run = await crawl('warc-jar', ['--cookies', '--warc', join(tmp.dir, 'warc-jar', 'crawl')]);
    expect(run.code, run.stderr).toBe(0);
    const records = await readWarc(join(tmp.dir, 'warc-jar', 'crawl-00000.warc.gz'));
    const requests = records.filter((r) => r.type === 'request');
    const head = (path: string) => requests.find((r) => r.header('WARC-Target-URI') === `http://login.test:${port}${path}`)!.block.toString('latin1');
    expect(head('/members/')).toMatch(/\r\ncookie: session=s3cret; theme=dark\r\n/i);
    expect(head('/')).not.toMatch(/\r\ncookie:/i);
  });
});

describe('--header', () => {
  it('adds each header to every request, robots.txt included', async () => {
    const run = await crawl('headers', ['--header', 'X-Token: t1', '--header', 'Accept-Language: el']);
    expect(run.code, run.stderr).toBe(0);
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
    expect(arrivals.every((a) => a.token === 't1')).toBe(true);
  });

  it('refuses a header the crawler sets itself, with exit status 2', async () => {
    const run = await runCli(['crawl', '--seed', 'http://login.test/', '--header', 'User-Agent: me'], { cwd: tmp.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('User-Agent cannot be set in headers: set user-agent instead');
  });
});

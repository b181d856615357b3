import { appendFile, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { writeDemoConf } from './support/e2e-web.js';
import { makeTreeSite, writePage } from './support/make-site.js';
import { resolveFlags, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';
import { DEMO_HOSTS, DEMO_ROOT } from '../src/demo/demo-web.js';
import { cdxjOf, checkWarc, sha1Base32, warcFiles, type ParsedRecord } from './support/warc-files.js';

const HOST = 'www.warc.test';
const NO_DELAYS = ['--delay-factor', '0', '--min-delay', '0', '--max-delay', '0'];
const BIG = Buffer.from('<!doctype html><title>big</title>' + 'x'.repeat(5000));
const ZIPPED = Buffer.from('<!doctype html><title>zipped</title><p>' + 'compressible text '.repeat(200));
const SAME = Buffer.from('<!doctype html><title>same</title><p>one body under two URLs');
// Header bytes past ASCII, as servers send them: UTF-8 in a filename, a lone Latin-1 é; node:http writes each char as one byte.
const OBS_TEXT = 'attachment; filename="caf\u00c3\u00a9 \u00e9.html"';
const UTF8_REASON = 'Tr\u00c3\u00a8s bien'; // "Très bien" in UTF-8, byte by byte
const CUT = Buffer.from('<!doctype html><title>cut</title>' + 'c'.repeat(567)); // 600 bytes of the 5000 announced
const NOT_GZIP = Buffer.concat([gzipSync(ZIPPED).subarray(0, 20), Buffer.from('the rest is not gzip '.repeat(400))]);

let tmp: Awaited<ReturnType<typeof tempDir>>;
let server: FixtureServer;

const expectOk = (ok: boolean, what: string): void => expect(ok, what).toBe(true);
const records = async (dir: string, prefix: string): Promise<ParsedRecord[]> => {
  const all: ParsedRecord[] = [];
  for (const file of await warcFiles(dir, prefix)) all.push(...(await checkWarc(file, expectOk)));
  return all;
};
const ofType = (rs: readonly ParsedRecord[], type: string, path: string) => rs.filter((r) => r.type === type && new URL(r.header('WARC-Target-URI')!).pathname === path);

beforeAll(async () => {
  tmp = await tempDir();
  const web = join(tmp.dir, 'web');
  await makeTreeSite(web, [HOST], 15);
  await writePage(web, HOST, 'p0.html', '<!doctype html><title>home</title><a href="p1.html">1</a> <a href="p2.html">2</a> <a href="big.html">big</a> <a href="zipped.html">z</a> <a href="a/same.html">a</a> <a href="b/same.html">b</a> <a href="obs-text.html">o</a> <a href="not-gzip.html">n</a>');
  for (let i = 0; i < 15; i++) await utimes(join(web, HOST, `p${i}.html`), new Date('2026-01-01'), new Date('2026-01-01'));
  server = await startFixtureServer({
    root: web,
    hooks: {
      handle: (req, res, { path }) => {
        if (path === '/big.html') res.writeHead(200, { 'content-type': 'text/html' }).end(BIG);
        else if (path === '/zipped.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }).end(gzipSync(ZIPPED));
        else if (path === '/a/same.html' || path === '/b/same.html') res.writeHead(200, { 'content-type': 'text/html' }).end(SAME);
        else if (path === '/cut.html') {
          res.writeHead(200, { 'content-type': 'text/html', 'content-length': 5000 });
          res.write(CUT, () => setTimeout(() => res.destroy(), 50));
        } else if (path === '/not-gzip.html') res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(NOT_GZIP);
        else if (path === '/obs-text.html') res.writeHead(200, UTF8_REASON, { 'content-type': 'text/html', 'content-disposition': OBS_TEXT }).end(SAME.toString().replace('same', 'obs'));
        else return false;
        return true;
      },
    },
  });
});
afterAll(async () => {
  await server?.close();
  await tmp?.remove();
});

const crawl = (name: string, extra: readonly string[] = []) =>
  runCli(
    ['crawl', '--seed', `http://${HOST}:${server.port}/p0.html`, ...resolveFlags([HOST], server.port), '--repository', join(tmp.dir, name),
      '--warc', join(tmp.dir, name, 'warc', 'crawl'), '--log-level', '0', '--threads', '2', ...NO_DELAYS, ...extra],
    { cwd: tmp.dir },
  );

describe('--warc', () => {
  let rs: ParsedRecord[];
  let failures: Record<string, number>;
  beforeAll(async () => {
    const run = await crawl('one', ['--max-body-size', '1000']);
    expect(run.code, run.stderr).toBe(0);
    rs = await records(join(tmp.dir, 'one', 'warc'), 'crawl');
    failures = (JSON.parse(await readFile(join(tmp.dir, 'one', 'stats.json'), 'utf8')) as { failuresByCode: Record<string, number> }).failuresByCode;
  });

  it('writes a request and a response (or revisit) per fetch, linked by WARC-Concurrent-To, with the peer address', () => {
    const responses = rs.filter((r) => r.type === 'response' || r.type === 'revisit');
    expect(responses.length).toBeGreaterThanOrEqual(18); // robots.txt, 15 tree pages, big, zipped, two copies
    for (const response of responses) {
      const request = rs.find((r) => r.header('WARC-Record-ID') === response.header('WARC-Concurrent-To'))!;
      expect(request.type).toBe('request');
      expect(request.header('WARC-Concurrent-To')).toBe(response.header('WARC-Record-ID'));
      expect(request.header('WARC-Target-URI')).toBe(response.header('WARC-Target-URI'));
      expect(response.header('WARC-IP-Address')).toBe('127.0.0.1');
      expect(request.block.toString('latin1')).toMatch(new RegExp(`^GET ${new URL(response.header('WARC-Target-URI')!).pathname} HTTP/1\\.1\\r\\nHost: ${HOST}:${server.port}\\r\\n`));
    }
  });

  it('keeps the status line and headers as received and the body as it came off the wire (gzip stays gzip)', () => {
    const [zipped] = ofType(rs, 'response', '/zipped.html');
    const head = zipped!.block.subarray(0, zipped!.payloadAt).toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\ncontent-encoding: gzip\r\n/i);
    const payload = zipped!.block.subarray(zipped!.payloadAt);
    expect(payload.equals(gzipSync(ZIPPED))).toBe(true);
    // Bytes past ASCII stay the bytes received: not re-encoded as UTF-8 (mojibake), in the block its digest covers.
    const [odd] = ofType(rs, 'response', '/obs-text.html');
    const oddHead = odd!.block.subarray(0, odd!.payloadAt);
    expect(oddHead.subarray(0, oddHead.indexOf('\r\n') + 2).equals(Buffer.from(`HTTP/1.1 200 ${UTF8_REASON}\r\n`, 'latin1'))).toBe(true);
    expect(oddHead.includes(Buffer.from(`\r\ncontent-disposition: ${OBS_TEXT}\r\n`, 'latin1'))).toBe(true);
    expect(odd!.header('WARC-Block-Digest')).toBe(sha1Base32(odd!.block));
  });

  it('archives a response whose body is not what its Content-Encoding says as it came, though the page fails', async () => {
    const [broken] = ofType(rs, 'response', '/not-gzip.html');
    expect(broken!.block.subarray(broken!.payloadAt).equals(NOT_GZIP.subarray(0, 1000))).toBe(true); // --max-body-size 1000
    expect(broken!.header('WARC-Truncated')).toBe('length');
    const cdxj = await readFile(cdxjOf((await warcFiles(join(tmp.dir, 'one', 'warc'), 'crawl'))[0]!), 'utf8');
    expect(cdxj).toMatch(/"url":"http:\/\/www\.warc\.test:\d+\/not-gzip\.html","mime":"text\/html","status":"200"/);
    expect(failures).toEqual({ 'bad-encoding': 1 });
  });

  it('marks a body cut at max-body-size with WARC-Truncated: length', () => {
    const [big] = ofType(rs, 'response', '/big.html');
    expect(big!.header('WARC-Truncated')).toBe('length');
    expect(big!.block.length - big!.payloadAt).toBe(1000);
    expect(ofType(rs, 'response', '/p1.html')[0]!.header('WARC-Truncated')).toBeNull();
  });

  it('archives a payload seen before as an identical-payload-digest revisit that refers to the first capture', () => {
    const copies = [...ofType(rs, 'response', '/a/same.html'), ...ofType(rs, 'response', '/b/same.html')];
    const revisits = [...ofType(rs, 'revisit', '/a/same.html'), ...ofType(rs, 'revisit', '/b/same.html')];
    expect(copies).toHaveLength(1);
    expect(revisits).toHaveLength(1);
    const [first, revisit] = [copies[0]!, revisits[0]!];
    expect(revisit.header('WARC-Profile')).toBe('http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
    expect(revisit.header('WARC-Refers-To-Target-URI')).toBe(first.header('WARC-Target-URI'));
    expect(revisit.header('WARC-Refers-To-Date')).toBe(first.header('WARC-Date'));
    expect(revisit.header('WARC-Payload-Digest')).toBe(sha1Base32(SAME));
    expect(revisit.block.length).toBe(revisit.payloadAt); // headers only
  });

  it('writes a 304 on recrawl as a server-not-modified revisit referring to the last capture', async () => {
    const run = await crawl('one', ['--max-body-size', '1000']);
    expect(run.code, run.stderr).toBe(0);
    const after = await records(join(tmp.dir, 'one', 'warc'), 'crawl');
    const [first, again] = [ofType(after, 'response', '/p3.html'), ofType(after, 'revisit', '/p3.html')];
    expect(first).toHaveLength(1);
    expect(again).toHaveLength(1);
    expect(again[0]!.header('WARC-Profile')).toBe('http://netpreserve.org/warc/1.1/revisit/server-not-modified');
    expect(again[0]!.block.toString('latin1')).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
    expect(again[0]!.header('WARC-Refers-To-Target-URI')).toBe(first[0]!.header('WARC-Target-URI'));
    expect(again[0]!.header('WARC-Refers-To-Date')).toBe(first[0]!.header('WARC-Date'));
  });
});

describe('a body the server cuts', () => {
  it('is archived as it came on every attempt, WARC-Truncated: disconnect, and the page fails', async () => {
    const run = await runCli(['crawl', '--seed', `http://${HOST}:${server.port}/cut.html`, ...resolveFlags([HOST], server.port), '--repository', join(tmp.dir, 'cut'),
      '--warc', join(tmp.dir, 'cut', 'warc', 'crawl'), '--log-level', '0', '--max-retries', '1', ...NO_DELAYS], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(0);
    const rs = await records(join(tmp.dir, 'cut', 'warc'), 'crawl');
    const cut = ofType(rs, 'response', '/cut.html');
    expect(cut).toHaveLength(2); // the first attempt and its retry
    for (const r of cut) {
      expect(r.header('WARC-Truncated')).toBe('disconnect');
      expect(r.block.subarray(r.payloadAt).equals(CUT)).toBe(true);
      expect(r.block.subarray(0, r.payloadAt).toString('latin1')).toMatch(/\r\ncontent-length: 5000\r\n/i);
    }
    const stats = JSON.parse(await readFile(join(tmp.dir, 'cut', 'stats.json'), 'utf8')) as { documents: number; failures: number; retries: number };
    expect(stats).toMatchObject({ documents: 0, failures: 1, retries: 1 });
  });
});

describe('a WARC that can take no more (a full disk)', () => {
  it('stops the crawl with exit 1 and one line saying so, what it could not take pending; a rerun with room archives every page once', async () => {
    const dir = join(tmp.dir, 'full');
    const site = join(tmp.dir, 'full-web');
    const urls = await makeTreeSite(site, ['f.test'], 80);
    const web = await startFixtureServer({ root: site });
    try {
      const args = ['crawl', '--seed', `http://f.test:${web.port}/p0.html`, ...resolveFlags(['f.test'], web.port), '--repository', dir,
        '--warc', join(dir, 'warc', 'crawl'), '--log-level', '0', '--threads', '2', ...NO_DELAYS];
      // 24 KiB a file: the WARC passes it after a score of pages; the journal, the index and the mirror's files do not.
      const full = await runCli(args, { cwd: tmp.dir, fileSizeLimitKb: 24 });
      expect(full.code, full.stderr).toBe(1);
      const errors = full.stderr.split('\n').filter((l) => l.includes('"level":50'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/cannot write the WARC: .*crawl-00000\.warc\.gz: .*; stopping/);
      const stats = JSON.parse(await readFile(join(dir, 'stats.json'), 'utf8')) as { documents: number; pending: number; completed: boolean; failures: number };
      expect(stats).toMatchObject({ completed: false, failures: 0 });
      expect(stats.pending).toBeGreaterThan(0);
      expect(stats.documents).toBeLessThan(urls.length);

      const again = await runCli(args, { cwd: tmp.dir });
      expect(again.code, again.stderr).toBe(0);
      const all = await records(join(dir, 'warc'), 'crawl');
      const pages = all.filter((r) => r.type === 'response' && r.header('WARC-Target-URI')!.endsWith('.html')).map((r) => r.header('WARC-Target-URI')!.replace(/:\d+\//, '/'));
      expect(pages.sort()).toEqual([...urls].sort()); // every page, once
    } finally {
      await web.close();
    }
  });
});

describe('a --warc path where no file can be made', () => {
  it('exits 1 at once naming the WARC and the cause: under /proc (where mkdir -p spins), through a regular file', async () => {
    const file = join(tmp.dir, 'a-file');
    await writeFile(file, 'not a folder\n');
    for (const [path, cause] of [['/proc/tarantula-no-such-dir/crawl', 'ENOENT'], [join(file, 'crawl'), 'is not a folder']] as const) {
      const run = await runCli(['crawl', '--seed', `http://${HOST}:${server.port}/p0.html`, ...resolveFlags([HOST], server.port), '--repository', join(tmp.dir, 'bad-warc'),
        '--warc', path, '--log-level', '0'], { cwd: tmp.dir, timeoutMs: 20_000 });
      expect(run.signal, 'killed by the timeout').toBeNull();
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`cannot open the WARC ${path}: `);
      expect(run.stderr).toContain(cause);
    }
  });
});

describe('warc-max-size', () => {
  it('rolls over to PATH-00001.warc.gz, … each opening with a warcinfo, none past the size unless one exchange is', async () => {
    const run = await crawl('rolled', ['--warc-max-size', '3000']);
    expect(run.code, run.stderr).toBe(0);
    const files = await warcFiles(join(tmp.dir, 'rolled', 'warc'), 'crawl');
    expect(files.length).toBeGreaterThan(3);
    expect(files.map((f) => f.slice(-14))).toEqual(files.map((_, i) => `-${String(i).padStart(5, '0')}.warc.gz`));
    for (const file of files) {
      const rs = await checkWarc(file, expectOk);
      expect(rs.filter((r) => r.type === 'warcinfo')).toHaveLength(1);
      const exchanges = rs.filter((r) => r.type === 'response' || r.type === 'revisit').length;
      if (exchanges > 1) expect((await stat(file)).size).toBeLessThanOrEqual(3000);
    }
  });
});

describe('a crawl killed while it writes its WARC', () => {
  it('resumes by cutting off the torn tail: every record of every file parses, every page is archived, the CDXJ offsets are right', async () => {
    const dir = join(tmp.dir, 'killed');
    const site = join(tmp.dir, 'big-web');
    const hosts = ['k1.test', 'k2.test', 'k3.test'];
    const urls = await makeTreeSite(site, hosts, 120);
    const big = await startFixtureServer({ root: site });
    try {
      const args = ['crawl', '--seed', `http://k1.test:${big.port}/p0.html`, ...resolveFlags(hosts, big.port), '--repository', dir,
        '--warc', join(dir, 'warc', 'crawl'), '--warc-max-size', '20000', '--log-level', '0', '--threads', '3',
        '--scope', 'free-spanning', '--delay-factor', '0', '--min-delay', '5', '--max-delay', '5'];
      const cdxj = join(dir, 'warc', 'crawl-00000.cdxj');
      const killed = await runCli(args, {
        cwd: tmp.dir,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            stat(cdxj).then((s) => {
              if (s.size > 3000) {
                clearInterval(poll);
                child.kill('SIGKILL');
              }
            }, () => {});
          }, 20);
          child.once('exit', () => clearInterval(poll));
        },
      });
      expect(killed.signal).toBe('SIGKILL');
      // Whatever the kill left, make the tail torn for sure: half a member, half a CDXJ line.
      const files = await warcFiles(join(dir, 'warc'), 'crawl');
      const last = files.at(-1)!;
      const whole = await readFile(last);
      await appendFile(last, whole.subarray(0, Math.floor(whole.length / 2)));
      await appendFile(cdxjOf(last), '{"url": "http://k1.test/torn');

      const resumed = await runCli(args, { cwd: tmp.dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      const all = await records(join(dir, 'warc'), 'crawl');
      const archived = new Set(all.filter((r) => r.type === 'response').map((r) => r.header('WARC-Target-URI')!.replace(/:\d+\//, '/')));
      for (const url of urls) expect(archived.has(url), url).toBe(true);
    } finally {
      await big.close();
    }
  });
});

describe('the demo web with --warc', () => {
  it("gives files that warcio's own indexer reads without error, whose CDXJ is the one warcio makes", async () => {
    const dir = join(tmp.dir, 'demo');
    const server = await startFixtureServer({ root: DEMO_ROOT });
    try {
      const conf = await writeDemoConf(tmp.dir, server.port);
      const run = await runCli(['crawl', conf, ...NO_DELAYS, '--repository', dir, '--warc', join(dir, 'demo.warc.gz'), '--log-level', '0',
        ...resolveFlags(DEMO_HOSTS, server.port)], { cwd: tmp.dir });
      expect(run.code, run.stderr).toBe(0);
      const files = await warcFiles(dir, 'demo');
      expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['demo-00000.warc.gz']);
      const rs = await checkWarc(files[0]!, expectOk);
      expect(rs.filter((r) => r.type === 'response').length).toBeGreaterThan(40);
      expect((await readFile(cdxjOf(files[0]!), 'utf8')).split('\n').length).toBeGreaterThan(40);
    } finally {
      await server.close();
    }
  });
});

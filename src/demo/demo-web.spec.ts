import { readdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join, relative, sep } from 'node:path';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { DEMO_CONF, DEMO_HOSTS, DEMO_ROOT, demoResolve } from './demo-web.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer({ root: DEMO_ROOT, portInLinks: false });
});
afterAll(() => server.close());

function get(host: string, path: string): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request({ port: server.port, host: '127.0.0.1', path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

/** The README's tables: host → (URL path → status). */
async function readmeRows(): Promise<Map<string, Map<string, number>>> {
  const rows = new Map<string, Map<string, number>>();
  let host: Map<string, number> | undefined;
  for (const line of (await readFile(join(DEMO_ROOT, 'README.md'), 'utf8')).split('\n')) {
    const heading = /^### (\S+)$/.exec(line);
    if (heading) rows.set(heading[1]!, (host = new Map()));
    const row = /^\| `([^`]+)` \| (\d{3}) \|/.exec(line);
    if (row && host) host.set(row[1]!, Number(row[2]));
  }
  return rows;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** The crawlable links of an HTML page, resolved against its URL or `<base href>`, without fragments. */
function linksOf(html: string, url: string): string[] {
  let base = url;
  const links: string[] = [];
  const add = (href: string | undefined): void => {
    if (href === undefined) return;
    const u = new URL(href.trim(), base);
    u.hash = '';
    if (u.protocol === 'http:') links.push(u.href);
  };
  new Parser({
    onopentag(name, a) {
      if (name === 'base' && a.href) base = new URL(a.href, url).href;
      if (name === 'a' || name === 'area') add(a.href);
      if (name === 'frame' || name === 'iframe') add(a.src);
      if (name === 'meta' && a['http-equiv']?.toLowerCase() === 'refresh') add(/url=(.*)$/i.exec(a.content ?? '')?.[1]);
    },
  }).end(html);
  return links;
}

describe('the demo web', () => {
  it('has one folder per demo host', async () => {
    const dirs = (await readdir(DEMO_ROOT, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(dirs.sort()).toEqual([...DEMO_HOSTS].sort());
    expect(demoResolve(4321)).toContainEqual({ host: 'blog.tarantula.test', port: 4321, address: '127.0.0.1' });
  });

  it('serves every URL of the README with the status the README gives', async () => {
    const rows = await readmeRows();
    expect([...rows.keys()].sort()).toEqual([...DEMO_HOSTS].sort());
    for (const [host, paths] of rows) {
      for (const [path, status] of paths) expect([host, path, (await get(host, path)).status]).toEqual([host, path, status]);
    }
  });

  it('lists every file and every link target of the pages in the README', async () => {
    const rows = await readmeRows();
    for (const host of DEMO_HOSTS) {
      const listed = rows.get(host)!;
      for (const file of await filesUnder(join(DEMO_ROOT, host))) {
        if (file === '_headers.json') continue;
        const path = '/' + file.replace(/(^|\/)index\.html$/, '$1').replace('%3F', '?');
        expect([host, path, listed.has(path) || listed.has('/' + file)]).toEqual([host, path, true]);
        const { type, body } = await get(host, path);
        if (!type.startsWith('text/html')) continue;
        for (const link of linksOf(body.toString('latin1'), `http://${host}${path}`)) {
          const u = new URL(link);
          expect([link, rows.get(u.hostname)?.has(u.pathname + u.search)]).toEqual([link, true]);
        }
      }
    }
  });

  it('holds pages in legacy encodings, declared in a meta tag or only in the header', async () => {
    const cases = [
      ['greek-meta.html', 'windows-1253', 'text/html', 'Ταραντούλα: Ελληνικά'],
      ['greek-header.html', 'iso-8859-7', 'text/html; charset=iso-8859-7', 'Ταραντούλα: Ελληνικά'],
      ['chinese-gbk.html', 'gbk', 'text/html', '塔兰图拉网络爬虫简介'],
      ['japanese-sjis.html', 'shift_jis', 'text/html', 'タランチュラ・クローラーについて'],
    ] as const;
    for (const [file, encoding, type, title] of cases) {
      const r = await get('www.tarantula.test', `/intl/${file}`);
      expect(r.type).toBe(type);
      const text = new TextDecoder(encoding, { fatal: true }).decode(r.body);
      expect(text).toContain(`<title>${title}`);
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(r.body)).toThrow();
    }
  });

  it('holds a real PDF and PNG', async () => {
    const pdf = await get('www.tarantula.test', '/files/tarantula-paper.pdf');
    expect([pdf.type, pdf.body.subarray(0, 5).toString(), pdf.body.toString('latin1').trimEnd().endsWith('%%EOF')]).toEqual([
      'application/pdf',
      '%PDF-',
      true,
    ]);
    const png = await get('www.tarantula.test', '/images/logo.png');
    expect([png.type, png.body.subarray(0, 8).toString('hex')]).toEqual(['image/png', '89504e470d0a1a0a']);
  });

  it('ships a Crawler.conf that loads cleanly with the demo settings', async () => {
    const { config, warnings } = await loadConfig(DEMO_CONF);
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      startingPoints: ['http://www.tarantula.test/', 'http://docs.tarantula.test/'],
      scope: 'domain-scope',
      traversal: 'bfs',
      repository: './demo-output',
      requestsInFlight: 4,
      delayFactor: 0,
      minDelayMs: 0,
      maxDelayMs: 0,
      logLevel: 1,
    });
    expect(config.rejectList.some((r) => r.test('http://www.tarantula.test/files/draft.tmp'))).toBe(true);
  });
});

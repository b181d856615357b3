import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { HOSTILE_ROOT, hostHooks, html, linesAbout, logLines, readHostileStats, sendHtml, type Handler, type HostileStats, type LogLine } from './support/hostile-web.js';
import { parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/** Where each redirecting path of redir.test sends the crawler (PORT: the server's). */
const REDIRECTS: Record<string, [number, string]> = {
  '/start': [301, '/'],
  '/to-out': [302, 'http://elsewhere.test:PORT/'],
  '/to-rejected': [301, '/file.tmp'],
  '/to-private': [302, '/private/p.html'],
  '/to-seen': [301, '/'],
  '/to-mailto': [302, 'mailto:webmaster@redir.test'],
  '/chain': [301, '/chain2'],
  '/chain2': [307, '/final.html'],
  '/loop1': [302, '/loop2'],
  '/loop2': [302, '/loop1'],
};
const LINKED = ['/to-out', '/to-rejected', '/to-private', '/to-seen', '/to-mailto', '/chain', '/loop1'];

const redirSite: Handler = (req, res, path) => {
  if (path === '/robots.txt') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
  const hop = REDIRECTS[path];
  const port = (req.headers.host ?? '').split(':')[1] ?? '80';
  if (hop) return void res.writeHead(hop[0], { Location: hop[1].replace('PORT', port) }).end();
  sendHtml(res, html(`redir.test ${path}`, path === '/' ? LINKED : []));
};
const elsewhere: Handler = (_req, res) => sendHtml(res, html('elsewhere'));

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun;
let log: LogLine[];
let stats: HostileStats;
let records: SeedRecord[];
beforeAll(async () => {
  web = await startWeb('redirects', { root: HOSTILE_ROOT, hooks: hostHooks({ 'redir.test': redirSite, 'elsewhere.test': elsewhere }), extraHosts: ['redir.test', 'elsewhere.test'] });
  tmp = await tempDir();
  const repo = join(tmp.dir, 'repo');
  const flags = ['--scope', 'host-scope', '--reject-list', '\\.tmp$', '--threads', '2', '--log-level', '2'];
  run = await web.crawl(['--seed', web.url('redir.test', '/start'), '--repository', repo, ...flags], { cwd: tmp.dir });
  log = logLines(run.stderr);
  stats = await readHostileStats(repo);
  records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const u = (path: string): string => web.url('redir.test', path);
const requested = (): string[] => run.requests.filter((r) => r.host === 'redir.test').map((r) => r.path);

describe('redirects: each hop is a new URL through the same filters', () => {
  it('terminate with exit status 0, every URL requested at most once', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(new Set(requested()).size).toBe(requested().length);
    expect(requested().sort()).toEqual(['/robots.txt', '/start', '/', ...LINKED, '/chain2', '/final.html', '/loop2'].sort());
  });

  it('a redirect out of scope is not followed', () => {
    expect(run.requests.filter((r) => r.host === 'elsewhere.test')).toEqual([]);
    expect(linesAbout(log, 'http://elsewhere.test:', true)).toContainEqual(expect.objectContaining({ reason: 'out-of-scope' }));
  });

  it('a redirect to a URL the reject-list matches is not followed', () => {
    expect(linesAbout(log, u('/file.tmp'))).toContainEqual(expect.objectContaining({ reason: 'rejected' }));
  });

  it('a redirect into a folder robots.txt disallows is not followed', () => {
    expect(linesAbout(log, u('/private/p.html'))).toContainEqual(expect.objectContaining({ reason: 'robots' }));
  });

  it('a redirect to a URL already seen is not fetched again; a loop ends there', () => {
    const duplicates = log.filter((l) => l.reason === 'duplicate').map((l) => l.url);
    expect(duplicates).toContain(u('/'));
    expect(duplicates).toContain(u('/loop1'));
  });

  it('a redirect to another scheme is dropped', () => {
    expect(log).toContainEqual(expect.objectContaining({ reason: 'unsupported-scheme', url: 'mailto:webmaster@redir.test' }));
  });

  it('each hop is logged with its target', () => {
    expect(linesAbout(log, u('/chain'))).toContainEqual(expect.objectContaining({ msg: 'redirect', status: 301, location: '/chain2' }));
    expect(linesAbout(log, u('/chain2'))).toContainEqual(expect.objectContaining({ msg: 'redirect', status: 307, location: '/final.html' }));
  });

  it('the index records the final URL with the original URL of the chain, and no record for a redirect', () => {
    const paths = records.map((r) => new URL(r.url).pathname).sort();
    expect(paths).toEqual(['/', '/final.html']);
    expect(records.find((r) => r.url === u('/final.html'))?.originalUrl).toBe('/chain');
    expect(records.find((r) => r.url === u('/'))?.originalUrl).toBe(u('/start'));
  });

  it('are counted in stats.json', () => {
    expect(stats.redirects).toBe(Object.keys(REDIRECTS).length);
    expect(stats.droppedByReason).toMatchObject({ 'out-of-scope': 1, rejected: 1, robots: 1, 'unsupported-scheme': 1 });
    expect(stats.droppedByReason.duplicate).toBeGreaterThanOrEqual(2);
    expect(stats.documents).toBe(2);
  });
});

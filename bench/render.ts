/**
 * Rendered pages per second and peak memory of `render = always` on a loopback app-shell site: every
 * page is a shell whose script asks an API for its two child pages. Run with 1 and 2 render threads.
 *
 *   npm run build && npx tsx bench/render.ts [--pages 60] [--render-threads 1,2]
 *
 * Peak RSS is the sum over the crawler and its Chromium processes, sampled every 100 ms: an upper
 * bound, as pages the processes share (Chromium's code) count once in each (/usr/bin/time's figure
 * would show only the largest single process).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './run-crawler.js';

const argv = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const pages = Number(value('--pages') ?? 60);
const threadCounts = (value('--render-threads') ?? '1,2').split(',').map(Number);

const APP_JS = `const n = Number(location.pathname.match(/(\\d+)/)[1]);
fetch('/api/' + n + '.json').then((r) => r.json()).then((links) => links.forEach((href) => {
  const a = document.createElement('a'); a.href = href; a.textContent = href; document.body.appendChild(a);
}));`;

const server = createServer((req, res) => {
  const path = req.url ?? '/';
  const api = /^\/api\/(\d+)\.json$/.exec(path);
  if (path === '/robots.txt') return res.writeHead(404).end();
  if (path === '/app.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(APP_JS);
  if (api) {
    const n = Number(api[1]);
    const links = [2 * n + 1, 2 * n + 2].filter((c) => c < pages).map((c) => `/p/${c}.html`);
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(links));
  }
  if (/^\/p\/\d+\.html$/.test(path)) return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><body><script src="/app.js"></script></body>');
  res.writeHead(404).end();
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const port = (server.address() as AddressInfo).port;

/** RSS in MB of `pid` and all its descendants. */
function treeRssMb(pid: number): number {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=']).toString().trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, pp] of rows) if (!tree.has(p!) && tree.has(pp!)) (tree.add(p!), (grew = true));
  }
  return rows.filter(([p]) => tree.has(p!)).reduce((sum, [, , rss]) => sum + rss!, 0) / 1024;
}

console.log(`${cpus().length} × ${cpus()[0]?.model.trim()}, node ${process.version}, load average ${loadavg()[0]?.toFixed(2)} at start`);
for (const threads of threadCounts) {
  const repo = await mkdtemp(join(tmpdir(), 'tarantula-render-bench-'));
  const args = [
    'crawl', '--seed', `http://app.test:${port}/p/0.html`, '--resolve', `app.test:${port}:127.0.0.1`, '--repository', repo, '--log-level', '0',
    '--render', 'always', '--render-threads', String(threads), '--threads', '4', '--max-per-host', '4', '--min-delay', '0', '--max-delay', '0', '--delay-factor', '0',
  ];
  const started = Date.now();
  const child = spawn(CLI, args, { stdio: 'ignore' });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRssMb(child.pid!))), 100);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearInterval(sampler);
  const wall = (Date.now() - started) / 1000;
  const stats = JSON.parse(await readFile(join(repo, 'stats.json'), 'utf8')) as { documents: number };
  console.log(`render-threads ${threads}: exit ${code}; ${stats.documents} rendered pages in ${wall.toFixed(1)} s → ${(stats.documents / wall).toFixed(2)} pages/s; peak RSS (crawler + Chromium) ${peak.toFixed(0)} MB`);
  await rm(repo, { recursive: true, force: true });
}
server.close();

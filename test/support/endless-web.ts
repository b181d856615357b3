import type { FixtureHooks } from '../../src/demo/fixture-server.js';

/**
 * A server hook answering for `host` with an endless binary tree of pages, each answered after
 * `delayMs`: `/` and `/n/K` link `/n/2K` and `/n/2K+1` (relative links, so no port is needed), and
 * robots.txt is 404. A crawl of it never finishes by itself, so a test can stop it by a signal, a
 * limit or a closed pipe while it is busy.
 *
 * @example
 * const web = await startWeb('order', { hooks: endlessPages('slow.test', 200), extraHosts: ['slow.test'] });
 */
export function endlessPages(host: string, delayMs: number): FixtureHooks {
  return {
    handle: (_req, res, at) => {
      if (at.host !== host) return false;
      if (at.path === '/robots.txt') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no robots.txt\n');
        return true;
      }
      const k = at.path === '/' ? 1 : Number(/^\/n\/(\d+)$/.exec(at.path)?.[1] ?? NaN);
      const body = Number.isNaN(k)
        ? undefined
        : `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Page ${k}</title></head>\n<body><a href="/n/${2 * k}">left ${2 * k}</a> <a href="/n/${2 * k + 1}">right ${2 * k + 1}</a></body></html>\n`;
      const timer = setTimeout(() => {
        if (body === undefined) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        else res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(body) }).end(body);
      }, delayMs);
      res.on('close', () => clearTimeout(timer));
      return true;
    },
  };
}

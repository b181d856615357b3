import type { FixtureHooks } from '../../src/demo/fixture-server.js';

/**
 * Server hooks for `hosts`, each with pages `/0` … `/pages-1` answered after `delayMs`: page K links
 * pages 2K+1 and 2K+2 of its own host and page K of the next host, so that links cross hosts and
 * most are found several times. robots.txt is 404. `title` names a page (default `HOST K`). With
 * `versions` (each page's version by `HOST/K`, 1 when absent, which a test may change between runs), a
 * page has the ETag `"vN"`, handed to `title` too, and an If-None-Match of it is answered 304.
 *
 * @example
 * startWeb('grid', { root: HOSTILE_ROOT, hooks: gridPages(['g0.test', 'g1.test'], 30, 5), extraHosts: [...] })
 */
export function gridPages(
  hosts: readonly string[],
  pages: number,
  delayMs: number,
  title = (host: string, k: number, _etag?: string): string => `${host} ${k}`,
  versions?: ReadonlyMap<string, number>,
): FixtureHooks {
  return {
    handle: (req, res, at) => {
      const h = hosts.indexOf(at.host);
      if (h < 0) return false;
      if (at.path === '/robots.txt') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no robots.txt\n');
        return true;
      }
      const k = Number(/^\/(\d+)$/.exec(at.path)?.[1] ?? NaN);
      if (!(k >= 0 && k < pages)) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        return true;
      }
      const etag = versions && `"v${versions.get(`${at.host}${at.path}`) ?? 1}"`;
      if (etag !== undefined && req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ETag: etag }).end();
        return true;
      }
      const next = hosts[(h + 1) % hosts.length]!;
      const links = [2 * k + 1, 2 * k + 2].filter((n) => n < pages).map((n) => `<a href="/${n}">${n}</a>`);
      links.push(`<a href="http://${next}:${req.socket.localPort}/${k}">${next} ${k}</a>`);
      const body = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title(at.host, k, etag)}</title></head><body>${links.join(' ')}</body></html>\n`;
      const timer = setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(body), ...(etag === undefined ? {} : { ETag: etag }) }).end(body), delayMs);
      res.on('close', () => clearTimeout(timer));
      return true;
    },
  };
}

/**
 * Serves one static folder on 127.0.0.1 for `npm run bench -- --site DIR`, whatever the Host header:
 *
 *   node --import tsx bench/static-site.ts DIR [--port 0]
 *
 * prints `{"port":P}` once listening and exits when stdin closes or on SIGTERM. Every file is read
 * into memory before the port is printed (a documentation tree is 20–650 MB), so that the server is
 * not the bottleneck and the first client does not pay for the disk reads the next one is spared
 * (`--compare-wget` runs the crawler first, then wget, on one server); a folder is served as its
 * index.html; robots.txt allows everything unless DIR has one. A path not read ahead (another
 * spelling of a file's name) is read at its first request.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
  '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json', '.xml': 'application/xml',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.bz2': 'application/x-bzip2', '.gz': 'application/gzip',
};

interface Entry {
  readonly status: number;
  readonly type: string;
  readonly body: Buffer;
  readonly lastModified: string;
}

const NOT_FOUND: Entry = { status: 404, type: 'text/html', body: Buffer.from('<!DOCTYPE html><title>Not found</title><h1>404</h1>\n'), lastModified: new Date(0).toUTCString() };
const ALLOW_ALL: Entry = { status: 200, type: 'text/plain', body: Buffer.from('User-agent: *\nAllow: /\n'), lastModified: new Date(0).toUTCString() };

async function load(root: string, urlPath: string): Promise<Entry> {
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(urlPath.split('?')[0]!));
  } catch {
    return NOT_FOUND;
  }
  let file = join(root, rel);
  if (file !== root && !file.startsWith(root + sep)) return NOT_FOUND;
  try {
    let info = await stat(file);
    if (info.isDirectory()) info = await stat((file = join(file, 'index.html')));
    return { status: 200, type: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', body: await readFile(file), lastModified: info.mtime.toUTCString() };
  } catch {
    return rel === `${sep}robots.txt` ? ALLOW_ALL : NOT_FOUND;
  }
}

/** Every file under `root` as the request path a client sends for it (and each folder holding an index.html as `/dir/`). */
async function readAhead(root: string, cache: Map<string, Promise<Entry>>): Promise<void> {
  const paths: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = join(entry.parentPath, entry.name).slice(root.length).split(sep).map(encodeURIComponent).join('/');
    paths.push(rel);
    if (entry.name === 'index.html') paths.push(rel.slice(0, -'index.html'.length));
  }
  // A few hundred reads at a time: enough to keep the disk busy, few enough for the open-files limit.
  for (let at = 0; at < paths.length; at += 256) {
    const batch = paths.slice(at, at + 256).map((path) => {
      const entry = load(root, path);
      cache.set(path, entry);
      return entry;
    });
    await Promise.all(batch);
  }
}

/** Serves `root`, every file read ahead; resolves with the port once listening. */
export async function serveStaticSite(root: string, port = 0): Promise<{ port: number; close: () => Promise<void> }> {
  const cache = new Map<string, Promise<Entry>>();
  await readAhead(root, cache);
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const path = req.url ?? '/';
    let entry = cache.get(path);
    if (entry === undefined) cache.set(path, (entry = load(root, path)));
    void entry.then((e) => {
      res.writeHead(e.status, { 'content-type': e.type, 'content-length': e.body.length, 'last-modified': e.lastModified });
      res.end(req.method === 'HEAD' ? undefined : e.body);
    });
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, ...rest] = process.argv.slice(2);
  if (!dir) throw new Error('usage: static-site.ts DIR [--port P]');
  const at = rest.indexOf('--port');
  const { port, close } = await serveStaticSite(resolve(dir), at >= 0 ? Number(rest[at + 1]) : 0);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  const stop = (): void => void close().then(() => process.exit(0));
  process.stdin.on('end', stop).resume();
  process.on('SIGTERM', stop);
}

/**
 * A deterministic synthetic web for the benchmarks: N pages of about 10 KB of real-looking HTML,
 * spread over K hosts `h0.bench.test` … `h{K-1}.bench.test`, plus a hub at `bench.test` that is the
 * seed. All hosts are served by one node:http server (name-based, by the Host header), meant to run
 * in a child process of its own so that its CPU time is not counted against the crawler's:
 *
 *   node --import tsx bench/synthetic-web.ts --pages 20000 --hosts 50 [--port 0]
 *
 * prints `{"port":P}` on stdout once listening, and exits when stdin closes or on SIGTERM.
 *
 * Every page has exactly 20 links: home (the hub), its parent, a `#main` fragment, four tree children
 * 4i+1…4i+4 (so every page is reachable from the hub whatever the crawl order), a relative link to a
 * page of the same host, a 404 on its own host (`/gone/G.html`, 50 distinct per host), a link to
 * `offsite.example` (never fetched: out of the crawl's domain scope and not resolved), and random
 * pages of any host to fill the rest. A fake link inside a `<script>` must not be followed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export const DOMAIN = 'bench.test';
export const OFFSITE = 'offsite.example';
const GONE_PER_HOST = 50;
const LAST_MODIFIED = 'Mon, 01 Jan 2024 00:00:00 GMT';

export interface SyntheticWeb {
  readonly pages: number;
  readonly hosts: number;
  readonly port: number;
  /** The scheme of its absolute links. Default http. */
  readonly scheme?: 'http' | 'https';
}

/** What a complete crawl of the synthetic web must find. */
export interface Expected {
  /** Pages plus the hub: every 200 document. */
  readonly documents: number;
  /** Distinct `/gone/` URLs: every 404. */
  readonly notFound: number;
  /** Every host name served (hub first), for `--resolve`. */
  readonly hostNames: readonly string[];
}

/** murmur3's finalizer: a cheap, well-mixed 32-bit hash so that the random links are reproducible. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

export const hostOf = (i: number, web: Pick<SyntheticWeb, 'hosts'>): string => `h${i % web.hosts}.${DOMAIN}`;
export const pageUrl = (i: number, web: SyntheticWeb): string => `${web.scheme ?? 'http'}://${hostOf(i, web)}:${web.port}/p/${i}.html`;
export const hubUrl = (port: number, scheme = 'http'): string => `${scheme}://${DOMAIN}:${port}/`;
const goneOf = (i: number, web: SyntheticWeb): number => Math.floor(i / web.hosts) % GONE_PER_HOST;

export function expected(web: Pick<SyntheticWeb, 'pages' | 'hosts'>): Expected {
  const gone = new Set<number>();
  for (let i = 0; i < web.pages; i++) gone.add((i % web.hosts) * GONE_PER_HOST + (Math.floor(i / web.hosts) % GONE_PER_HOST));
  const hostNames = [DOMAIN, ...Array.from({ length: Math.min(web.hosts, web.pages) }, (_, h) => `h${h}.${DOMAIN}`)];
  return { documents: web.pages + 1, notFound: gone.size, hostNames };
}

const WORDS = (
  'crawler frontier politeness robots anchor harvest mirror index stream operator queue host depth breadth ' +
  'archive document fetch parse normalize schedule latency bandwidth protocol header encoding charset café ' +
  'naïve über résumé — the of and to in is that for with as on by this from at which are be an or it its ' +
  'library pipeline observable subscriber backpressure segment fragment canonical redirect sitemap server'
).split(/\s+/).filter(Boolean);

function words(seed: number, n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(WORDS[mix(seed * 131 + k) % WORDS.length]!);
  return out.join(' ');
}

/** Shared paragraph text, rendered once: most of each page's bytes. */
const PARAGRAPHS = Array.from({ length: 64 }, (_, p) => `<p>${words(p + 1, 200)}.</p>\n`);

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const a = (href: string, text: string): string => `<a href="${href}">${esc(text)}</a>`;

/** The 20 links of page i, as written in the page (some relative), with their anchor text. */
export function pageLinks(i: number, web: SyntheticWeb): [href: string, text: string][] {
  const host = hostOf(i, web);
  const local = (j: number): string => (hostOf(j, web) === host ? `/p/${j}.html` : pageUrl(j, web));
  const links: [string, string][] = [
    [hubUrl(web.port, web.scheme), 'Home'],
    [i === 0 ? hubUrl(web.port, web.scheme) : local(Math.floor((i - 1) / 4)), 'Up'],
    ['#main', 'Skip to content'],
  ];
  for (let c = 4 * i + 1; c <= 4 * i + 4 && c < web.pages; c++) links.push([pageUrl(c, web), words(c, 3)]);
  const sibling = i + web.hosts < web.pages ? i + web.hosts : i - web.hosts;
  if (sibling >= 0) links.push([`${sibling}.html`, words(sibling, 2)]);
  links.push([`/gone/${goneOf(i, web)}.html`, 'An old page']);
  links.push([`http://${OFFSITE}/ref/${i % 100}.html`, 'Elsewhere']);
  for (let k = 0; links.length < 20; k++) {
    const j = mix(i * 977 + k) % web.pages;
    links.push([pageUrl(j, web), words(j, 3)]);
  }
  return links;
}

/** Page i's HTML: about 10 KB, links spread through the text as on a real site. */
export function renderPage(i: number, web: SyntheticWeb): string {
  const links = pageLinks(i, web);
  const title = `${words(i, 4)} · ${hostOf(i, web)} page ${i}`;
  const parts = [
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
    `<title>${esc(title)}</title>\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`,
    '<style>body{font-family:sans-serif;max-width:50em;margin:auto}nav a{margin-right:1em}</style>\n',
    '<script>window.dataLayer = []; /* <a href="/not-a-link.html">not a link</a> */</script>\n</head>\n<body>\n',
    `<header><nav>${a(...links[0]!)} ${a(...links[1]!)} ${a(...links[2]!)}</nav></header>\n<main id="main">\n<h1>${esc(title)}</h1>\n`,
  ];
  let next = 3;
  for (let p = 0; p < 6; p++) {
    parts.push(PARAGRAPHS[(i * 7 + p * 13) % PARAGRAPHS.length]!);
    const block = links.slice(next, next + 3);
    next += block.length;
    if (block.length > 0) parts.push(`<ul class="related">${block.map((l) => `<li>${a(...l)}</li>`).join('')}</ul>\n`);
  }
  parts.push(`</main>\n<footer><p>${links.slice(next).map((l) => a(...l)).join(' · ')}</p></footer>\n</body>\n</html>\n`);
  return parts.join('');
}

function renderHub(web: SyntheticWeb): string {
  const items = Array.from({ length: Math.min(web.hosts, web.pages) }, (_, i) => `<li>${a(pageUrl(i, web), `Start at ${hostOf(i, web)}`)}</li>`);
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>The synthetic web</title></head>\n<body><h1>The synthetic web</h1><ul>${items.join('')}</ul></body></html>\n`;
}

const ROBOTS = Buffer.from('User-agent: *\nAllow: /\n');
const NOT_FOUND = Buffer.from('<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>404</h1></body></html>\n');

function send(res: ServerResponse, status: number, type: string, body: Buffer | string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': type, 'content-length': bytes.length, 'last-modified': LAST_MODIFIED });
  res.end(bytes);
}

/** The synthetic web's request handler; `web.port` is read when pages are rendered, so it may be set after listening. */
export function syntheticWebHandler(web: SyntheticWeb): (req: IncomingMessage, res: ServerResponse) => void {
  const { pages } = web;
  let hub: Buffer | undefined;
  return (req, res) => {
    const name = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = req.url ?? '/';
    if (path === '/robots.txt') return send(res, 200, 'text/plain', ROBOTS);
    if (name === DOMAIN && path === '/') return send(res, 200, 'text/html; charset=utf-8', (hub ??= Buffer.from(renderHub(web))));
    const m = /^\/p\/(\d+)\.html$/.exec(path);
    const i = m ? Number(m[1]) : -1;
    if (i >= 0 && i < pages && name === hostOf(i, web)) return send(res, 200, 'text/html; charset=utf-8', renderPage(i, web));
    send(res, 404, 'text/html; charset=utf-8', NOT_FOUND);
  };
}

/** Serves the synthetic web on 127.0.0.1; resolves once listening (port 0 picks a free one). */
export async function serveSyntheticWeb(pages: number, hosts: number, port = 0): Promise<{ web: SyntheticWeb; close: () => Promise<void> }> {
  const web = { pages, hosts, port };
  const server = createServer({ keepAliveTimeout: 60_000 }, syntheticWebHandler(web));
  let connections = 0;
  let requests = 0;
  server.on('connection', () => connections++).on('request', () => requests++);
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  web.port = (server.address() as AddressInfo).port;
  // On stderr, which the bench passes through: how many connections the crawl opened for its requests.
  const tally = (): void => void process.stderr.write(`synthetic web: ${requests} requests on ${connections} connections\n`);
  return { web, close: () => new Promise((ok) => { tally(); server.closeAllConnections(); server.close(() => ok()); }) };
}

function flag(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const { web, close } = await serveSyntheticWeb(flag(args, '--pages', 20_000), flag(args, '--hosts', 50), flag(args, '--port', 0));
  process.stdout.write(`${JSON.stringify({ port: web.port })}\n`);
  const stop = (): void => void close().then(() => process.exit(0));
  process.stdin.on('end', stop).resume();
  process.on('SIGTERM', stop);
}

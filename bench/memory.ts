/**
 * Heap bytes per seen URL and per pending URL (`npm run bench:memory`): 1M URLs over 10k hosts go
 * through the real admission stages (normalizeLinks, dedup: the CrawlRequest objects the crawl
 * makes) into hostFrontier, and their MD5s into fingerprintSet. Each figure is the growth of
 * heapUsed + arrayBuffers between two full GCs, divided by the URL count.
 *
 *   node --expose-gc --import tsx bench/memory.ts [--urls 1000000] [--hosts 10000]
 *
 * Pending URLs are measured three ways: hrefs as flat strings of their own; hrefs as htmlparser2
 * hands them out (attribute values sliced out of the decoded page); and the packed per-host byte
 * queue sketched in packed-queue.ts.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { from } from 'rxjs';
import type { Candidate, CrawlRequest } from '../src/frontier/crawl-request.js';
import { hostFrontier, type Frontier } from '../src/frontier/host-frontier.js';
import { fingerprintSet } from '../src/frontier/seen-set.js';
import { decodeText } from '../src/parse/encoding-label.js';
import { extractHtml } from '../src/parse/extract-html.js';
import { dedup } from '../src/stages/dedup.js';
import { normalizeLinks } from '../src/stages/normalize-links.js';
import { normalizeUrl } from '../src/url/normalize-url.js';
import { urlMd5 } from '../src/url/url-md5.js';
import { PackedQueue } from './packed-queue.js';

setFlagsFromString('--expose-gc'); // so that plain `tsx bench/memory.ts` works too
const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void;

const value = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const URLS = value('--urls', 1_000_000);
const HOSTS = value('--hosts', 10_000);
const LINKS_PER_PAGE = 20;
const SEEN_TARGET = 24;
const PENDING_TARGET = 200;

const urlOf = (n: number): string => `http://www.site${n % HOSTS}.example/docs/section-${n % 97}/page-${n}.html`;
/** A flat copy, as a string decoded from the network would be (a template literal makes a rope). */
const flat = (s: string): string => Buffer.from(s, 'latin1').toString('latin1');
const noReport = (): void => undefined;

function heap(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Bytes the heap grew by while `build` ran and kept its result alive. */
function grown<T>(build: () => T): { bytes: number; kept: T } {
  const before = heap();
  const kept = build();
  return { bytes: heap() - before, kept };
}

/** The 20 candidate links of page p, as parse-document hands them to admission. */
function* flatCandidates(): Generator<Candidate> {
  for (let p = 0; p * LINKS_PER_PAGE < URLS; p++) {
    const referrer = flat(urlOf(URLS + p));
    for (let k = 0; k < LINKS_PER_PAGE && p * LINKS_PER_PAGE + k < URLS; k++) {
      const href = flat(urlOf(p * LINKS_PER_PAGE + k));
      yield { href, url: normalizeUrl(href, referrer)!, vetted: true, base: referrer, depth: 3, referrer };
    }
  }
}

/** About 10 KB of text around the links, with typographic quotes as most real pages have. */
const FILLER = `<p>${'The crawler’s frontier keeps every pending URL of a host in its own queue. '.repeat(12)}</p>\n`;

/** The same links, written in real pages and taken out by the crawler's own HTML extractor. */
function* parsedCandidates(): Generator<Candidate> {
  for (let p = 0; p * LINKS_PER_PAGE < URLS; p++) {
    const referrer = flat(urlOf(URLS + p));
    const parts = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page</title></head><body>\n'];
    for (let k = 0; k < LINKS_PER_PAGE && p * LINKS_PER_PAGE + k < URLS; k++) parts.push(FILLER, `<a href="${urlOf(p * LINKS_PER_PAGE + k)}">link ${k}</a>\n`);
    parts.push('</body></html>\n');
    const text = decodeText(Buffer.from(parts.join('')), 'utf-8');
    for (const link of extractHtml(text).links) yield { href: link.href, url: normalizeUrl(link.href, referrer)!, vetted: true, base: referrer, depth: 3, referrer };
  }
}

function admitInto(frontier: Frontier<CrawlRequest>, candidates: Iterable<Candidate>): number {
  const seen = fingerprintSet(1 << 22); // sized up front: its bytes are measured on their own
  from(candidates).pipe(normalizeLinks(noReport), dedup(seen, noReport)).subscribe((req) => frontier.push(req));
  return frontier.size;
}

const perUrl = (bytes: number, n = URLS): number => Math.round((bytes / n) * 10) / 10;
const verdict = (bytes: number, target: number): string =>
  bytes <= target ? `meets the ${target}-byte target` : `MISSES the ${target}-byte target by ${Math.round(bytes - target)} bytes (${(bytes / target).toFixed(1)}×)`;

console.log(`memory: ${URLS.toLocaleString('en-US')} URLs over ${HOSTS.toLocaleString('en-US')} hosts, node ${process.version}`);

// Seen-set: at the measured size, and just past a resize, where its table is emptiest.
for (const n of [URLS, Math.floor((1 << 20) * 0.75) + 1]) {
  const { bytes } = grown(() => {
    const seen = fingerprintSet();
    for (let i = 0; i < n; i++) seen.add(urlMd5(urlOf(i)));
    return seen;
  });
  console.log(`seen-set        ${perUrl(bytes, n)} bytes per seen URL at ${n.toLocaleString('en-US')} URLs: ${verdict(bytes / n, SEEN_TARGET)}`);
}

/** Flat hrefs: the per-pending figure, what it is made of, and the packed sketch on the same requests. */
function measureFlat(): void {
  const run = grown(() => {
    const frontier = hostFrontier<CrawlRequest>({ order: 'bfs', politeness: { delayMs: () => 0 } });
    admitInto(frontier, flatCandidates());
    return frontier;
  });
  const pending = run.bytes / run.kept.size;
  console.log(`pending (flat)   ${perUrl(run.bytes, run.kept.size)} bytes per pending URL, hrefs as flat strings: ${verdict(pending, PENDING_TARGET)}`);

  // What one pending request is made of: each part made again as admission makes it, 1M of it alone, less the 8-byte array slot.
  const sample = [...run.kept.pending()];
  const part = (pick: (r: CrawlRequest) => unknown): number => perUrl(grown(() => sample.map(pick)).bytes, sample.length) - 8;
  const parts = {
    url: part((r) => normalizeUrl(flat(r.url))),
    originalUrl: part((r) => flat(r.originalUrl)),
    key: part((r) => urlMd5(r.url)),
    'host (a slice of URL.href, which it keeps alive)': part((r) => new URL(r.url).host),
    'request object': part((r) => ({
      url: r.url, key: r.key, host: r.host, depth: r.depth, originalUrl: r.originalUrl, redirects: 0, attempt: 0,
      ...(r.referrer !== undefined ? { referrer: r.referrer } : {}),
    })),
  };
  const named = Object.values(parts).reduce((a, b) => a + b, 0);
  console.log(`  of which        ${Object.entries(parts).map(([k, v]) => `${k} ${v}`).join(', ')}; frontier entry {req, seq}, deque slot, referrer share: ${Math.round(pending - named)}`);

  const packed = grown(() => {
    const queues = new Map<string, PackedQueue>();
    let seq = 0;
    for (const req of sample) {
      let q = queues.get(req.host);
      if (q === undefined) queues.set(req.host, (q = new PackedQueue(req.host)));
      q.push(req, seq++);
    }
    return queues;
  });
  const first = sample[0]!;
  const { referrer: _dropped, ...expected } = first;
  if (JSON.stringify(packed.kept.get(first.host)!.shift()!.req) !== JSON.stringify(expected)) throw new Error('packed queue: round trip failed');
  console.log(`pending (packed) ${perUrl(packed.bytes, sample.length)} bytes per pending URL in per-host byte queues (packed-queue.ts): ${verdict(packed.bytes / sample.length, PENDING_TARGET)}`);
}

function measureParsed(): void {
  const run = grown(() => {
    const frontier = hostFrontier<CrawlRequest>({ order: 'bfs', politeness: { delayMs: () => 0 } });
    admitInto(frontier, parsedCandidates());
    return frontier;
  });
  const pending = run.bytes / run.kept.size;
  console.log(`pending (parsed) ${perUrl(run.bytes, run.kept.size)} bytes per pending URL, hrefs as htmlparser2 slices them out of ~10 KB pages: ${verdict(pending, PENDING_TARGET)}`);
}

measureFlat();
measureParsed();

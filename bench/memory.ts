/**
 * Heap bytes per seen URL, per pending URL, per indexed page and per archived payload (`npm run bench:memory`): 1M URLs over 10k hosts go
 * through the real admission stages (normalizeLinks, dedup: the CrawlRequest objects the crawl
 * makes) into hostFrontier as the crawl configures it (requests packed by crawlRequestCodec), and
 * into fingerprintSet. Each figure is the growth of heapUsed + arrayBuffers between two full GCs,
 * divided by the URL count.
 *
 *   node --expose-gc --import tsx bench/memory.ts [--urls 1000000] [--hosts 10000]
 *
 * Pending URLs are measured with hrefs as flat strings of their own, and as htmlparser2 hands them
 * out (attribute values sliced out of the decoded page), packed and, for comparison, as objects.
 */
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { from } from 'rxjs';
import type { Candidate, CrawlRequest } from '../src/model/crawl-request.js';
import { hostFrontier, type Frontier } from '../src/frontier/host-frontier.js';
import { fingerprintSet } from '../src/frontier/seen-set.js';
import { decodeText } from '../src/parse/encoding-label.js';
import { extractHtml } from '../src/parse/extract-html.js';
import { dedup } from '../src/stages/dedup.js';
import { normalizeLinks } from '../src/stages/normalize-links.js';
import { normalizeUrl } from '../src/url/normalize-url.js';
import { crawlRequestCodec } from '../src/frontier/request-codec.js';
import { inLinkCounts } from '../src/frontier/in-link-counts.js';
import { NearDuplicateIndex } from '../src/frontier/near-duplicate-index.js';
import { ContentSeen } from '../src/frontier/content-seen.js';
import { defaultPrioritizer } from '../src/frontier/prioritizer.js';
import { PayloadIndex } from '../src/archive/payload-index.js';
import { warcDate } from '../src/archive/warc-date.js';
import { sha1Digest, type Original } from '../src/archive/warc-records.js';
import { countInLinks } from '../src/stages/count-in-links.js';
import { prioritize } from '../src/stages/prioritize.js';

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
      yield { href, url: normalizeUrl(href, referrer)!, vetted: true, base: referrer, depth: 3 };
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
    for (const link of extractHtml(text).links) yield { href: link.href, url: normalizeUrl(link.href, referrer)!, vetted: true, base: referrer, depth: 3 };
  }
}

function admitInto(frontier: Frontier<CrawlRequest>, candidates: Iterable<Candidate>): number {
  const seen = fingerprintSet(1 << 22); // sized up front: its bytes are measured on their own
  from(candidates).pipe(normalizeLinks(noReport), dedup(seen, noReport)).subscribe((req) => frontier.push(req));
  return frontier.size;
}

/** As the crawl admits with priority-levels 4 (in-links counted, a level per request); `spread` puts every 4th URL on each level instead. */
function admitWithLevels(frontier: Frontier<CrawlRequest>, candidates: Iterable<Candidate>, spread: boolean): number {
  const seen = fingerprintSet(1 << 22);
  const counts = inLinkCounts();
  const ctx = { levels: 4, inLinks: (url: string) => counts.get(url) };
  let n = 0;
  from(candidates)
    .pipe(normalizeLinks(noReport), countInLinks(counts), dedup(seen, noReport), prioritize(defaultPrioritizer, ctx))
    .subscribe((req) => frontier.push(spread ? { ...req, level: 1 + (n++ % 4) } : req));
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
    for (let i = 0; i < n; i++) seen.add(urlOf(i));
    return seen;
  });
  console.log(`seen-set        ${perUrl(bytes, n)} bytes per seen URL at ${n.toLocaleString('en-US')} URLs: ${verdict(bytes / n, SEEN_TARGET)}`);
}

for (const [name, candidates] of [['flat hrefs', flatCandidates], ['hrefs from parsed pages', parsedCandidates]] as const) {
  for (const packed of [true, false]) {
    const run = grown(() => {
      const frontier = hostFrontier<CrawlRequest>({ order: 'bfs', politeness: { delayMs: () => 0 }, ...(packed ? { codec: crawlRequestCodec } : {}) });
      admitInto(frontier, candidates());
      return frontier;
    });
    const per = run.bytes / run.kept.size;
    console.log(`pending ${packed ? '(packed, as crawled)' : '(as objects)      '} ${perUrl(run.bytes, run.kept.size)} bytes per pending URL, ${name}: ${verdict(per, PENDING_TARGET)}`);
  }
}

// Front queues (priority-levels 4, SPEC §10): the in-link sketch (1 MiB, fixed) is measured apart from the queues.
const sketch = grown(() => inLinkCounts());
console.log(`in-link counts  ${(sketch.bytes / 2 ** 20).toFixed(2)} MiB, whatever the number of URLs`);
for (const spread of ['one level', false, true] as const) {
  const run = grown(() => {
    const frontier = hostFrontier<CrawlRequest>({ order: 'bfs', politeness: { delayMs: () => 0 }, codec: crawlRequestCodec, levels: spread === 'one level' ? 1 : 4, levelOf: (r) => r.level ?? 1 });
    admitWithLevels(frontier, flatCandidates(), spread === true);
    return frontier;
  });
  const per = (run.bytes - sketch.bytes) / run.kept.size;
  console.log(`pending (packed, ${spread === 'one level' ? '1 level, same admission' : spread ? '4 levels, a quarter on each' : '4 levels, levels as crawled'}) ${perUrl(run.bytes - sketch.bytes, run.kept.size)} bytes per pending URL, flat hrefs: ${verdict(per, PENDING_TARGET)}`);
}

// Per indexed page, what the main thread keeps of every document for the rest of the crawl: the content
// MD5s with their first URLs (exact duplicates) and the SimHash index (near-duplicates, at the default 4 bits).
// The MD5s come over from the worker as fresh strings, the URLs are the requests' own (counted here, as
// a page's request is gone once it is indexed).
for (const pages of [100_000, URLS]) {
  const run = grown(() => {
    const contentSeen = new ContentSeen();
    const near = new NearDuplicateIndex(4);
    for (let i = 0; i < pages; i++) {
      const url = flat(urlOf(i));
      const md5 = createHash('md5').update(url).digest('hex');
      contentSeen.add(md5, url);
      near.add(md5.slice(0, 16), url);
    }
    return [contentSeen, near] as const;
  });
  console.log(`indexed pages   ${perUrl(run.bytes, pages)} bytes per indexed page at ${pages.toLocaleString('en-US')} pages (content MD5s ${contentSeenShare(pages)}, SimHash index the rest; URLs of ${urlOf(pages - 1).length} characters)`);
}

// Per archived payload (--warc), what the archive keeps for identical-payload revisits: the SHA-1 as
// sha1Digest makes it, the first capture's URL and WARC-Date; and, for comparison, the Map of strings
// it replaced. The digest is sliced as the CDXJ line slices it, which flattens it in place (a sum of
// the slices' lengths, so that the slicing is not optimized away).
let cdxjChars = 0;
for (const pages of [100_000, URLS]) {
  for (const packed of [true, false]) {
    const run = grown(() => {
      const payloads = packed ? new PayloadIndex() : new Map<string, Original>();
      for (let i = 0; i < pages; i++) {
        const url = flat(urlOf(i));
        const ms = Date.UTC(2026, 11, 1) + i * 1000;
        const digest = sha1Digest(url);
        cdxjChars += digest.slice('sha1:'.length).length;
        if (payloads instanceof PayloadIndex) payloads.add(digest, url, ms);
        else payloads.set(digest, { url, date: warcDate(ms) });
      }
      return payloads;
    });
    console.log(`archived payloads ${packed ? '(PayloadIndex)' : '(a Map, for comparison)'} ${perUrl(run.bytes, pages)} bytes per payload at ${pages.toLocaleString('en-US')} payloads`);
  }
}

/** The content MD5s' own part, measured alone. */
function contentSeenShare(pages: number): string {
  const { bytes } = grown(() => {
    const contentSeen = new ContentSeen();
    for (let i = 0; i < pages; i++) contentSeen.add(createHash('md5').update(String(i)).digest('hex'), flat(urlOf(i)));
    return contentSeen;
  });
  return `${perUrl(bytes, pages)} B`;
}

/**
 * Link extraction from the same pages by tarantula's own scanner (src/parse/extract-html.ts), by
 * htmlparser2 (the same job on its tokenizer, htmlparser2-links.ts: what tarantula used before)
 * and by sax (loose mode, lowercase): throughput, and whether they find the same links.
 *
 *   npx tsx bench/parsers.ts [DIR ...]
 *
 * Without arguments it reads the Debian documentation (postgresql-doc-15, python3.11-doc) when
 * installed, and fixtures/pages. Pages are decoded once up front; the timings cover parsing only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sax from 'sax';
import { decodeText } from '../src/parse/encoding-label.js';
import { collapseWhitespace, extractHtml, type ExtractedLink, type LinkTag } from '../src/parse/extract-html.js';
import { extractWithHtmlparser2 } from './htmlparser2-links.js';
import { refreshTarget } from '../src/parse/meta-refresh.js';
import { sniffEncoding } from '../src/parse/sniff-encoding.js';

const DEFAULT_DIRS = ['/usr/share/doc/postgresql-doc-15/html', '/usr/share/doc/python3.11/html', 'fixtures/pages'];
const PASSES = 3;

interface Source {
  readonly path: string;
  readonly bytes: Uint8Array;
}
interface Page extends Source {
  readonly text: string;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.html?$/i.test(name))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** The same job as extractHtml's link part, on sax's loose (non-strict) parser. */
function saxLinks(html: string): ExtractedLink[] {
  const parser = sax.parser(false, { lowercase: true });
  const links: { href: string; text: string; nofollow: boolean; tag: LinkTag }[] = [];
  let anchor: (typeof links)[number] | undefined;
  let hidden = 0;
  const push = (href: string | undefined, text: string, rel: string | undefined, tag: LinkTag) => {
    if (href === undefined) return undefined;
    const link = { href: href.trim(), text, nofollow: rel !== undefined && /(?:^|\s)nofollow(?:\s|$)/i.test(rel), tag };
    links.push(link);
    return link;
  };
  const endAnchor = () => {
    if (anchor !== undefined) anchor.text = collapseWhitespace(anchor.text);
    anchor = undefined;
  };
  parser.onopentag = (node) => {
    const name = node.name;
    const attrs = node.attributes as Record<string, string>;
    if (name === 'script' || name === 'style' || name === 'template') hidden++;
    if (hidden > 0) return;
    if (anchor !== undefined && name === 'img' && attrs.alt !== undefined) anchor.text += attrs.alt;
    else if (anchor !== undefined && /^(?:br|p|div|li|dt|dd|tr|td|th|h[1-6]|hr|blockquote|ul|ol|table)$/.test(name)) anchor.text += ' ';
    if (name === 'a') {
      endAnchor();
      anchor = push(attrs.href, '', attrs.rel, 'a');
    } else if (name === 'area') push(attrs.href, collapseWhitespace(attrs.alt ?? ''), attrs.rel, 'area');
    else if (name === 'frame' || name === 'iframe') push(attrs.src, '', undefined, name);
    else if (name === 'meta' && attrs['http-equiv']?.trim().toLowerCase() === 'refresh' && attrs.content !== undefined) {
      push(refreshTarget(attrs.content), '', undefined, 'meta');
    }
  };
  parser.ontext = (text) => {
    if (hidden === 0 && anchor !== undefined) anchor.text += text;
  };
  parser.onclosetag = (name) => {
    if (name === 'script' || name === 'style' || name === 'template') hidden--;
    else if (hidden === 0 && name === 'a') endAnchor();
  };
  parser.onerror = () => {
    // Loose mode still reports malformed markup as errors; carry on as a crawler must.
    (parser as { error: Error | null }).error = null;
    parser.resume();
  };
  parser.write(html).close();
  endAnchor();
  return links;
}

const scannerLinks = (html: string): readonly ExtractedLink[] => extractHtml(html).links;
const htmlparser2Links = (html: string): readonly ExtractedLink[] => extractWithHtmlparser2(html).links;
/** The scanner as the document worker runs it: links, and the SimHash of the visible text (near-duplicates). */
const scannerWithSimhash = (html: string): readonly ExtractedLink[] => extractHtml(html, { simhash: true }).links;
const PARSERS = { tarantula: scannerLinks, 'tar+simhash': scannerWithSimhash, htmlparser2: htmlparser2Links, sax: saxLinks };

interface Timing {
  wall: number;
  cpu: number;
}

/**
 * Wall and CPU seconds of one pass. The CPU figure is the fairer one on a shared machine: other
 * processes on the 2 cores stretch wall time but not the time this process actually ran.
 */
function time(pages: readonly Page[], extract: (html: string) => unknown): Timing {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (const page of pages) extract(page.text);
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1e6 };
}

const key = (links: readonly ExtractedLink[]): string => links.map((l) => `${l.tag} ${l.href}`).join('\n');
const keyWithText = (links: readonly ExtractedLink[]): string => links.map((l) => `${l.tag} ${l.href} ${l.text}`).join('\n');

function firstDifference(a: readonly ExtractedLink[], b: readonly ExtractedLink[], other: string): string {
  const show = (l: ExtractedLink | undefined) => (l === undefined ? '(none)' : JSON.stringify([l.tag, l.href, l.text]));
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i], y = b[i];
    if (x?.tag !== y?.tag || x?.href !== y?.href || x?.text !== y?.text) {
      return `#${i} of ${a.length}/${b.length}: tarantula ${show(x)} | ${other} ${show(y)}`;
    }
  }
  return 'identical';
}

function main(): void {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_DIRS;
  const pages: Source[] = [];
  for (const dir of dirs) {
    let files: string[];
    try {
      files = htmlFiles(dir);
    } catch {
      console.log(`skipped ${dir}: not readable`);
      continue;
    }
    for (const path of files) pages.push({ path, bytes: readFileSync(path) });
    console.log(`${dir}: ${files.length} pages`);
  }
  const megabytes = pages.reduce((sum, p) => sum + p.bytes.length, 0) / 1e6;

  const decodeStart = process.hrtime.bigint();
  const decoded: Page[] = pages.map((p) => ({ ...p, text: decodeText(p.bytes, sniffEncoding(p.bytes, 'text/html').encoding) }));
  const decodeSeconds = Number(process.hrtime.bigint() - decodeStart) / 1e9;
  console.log(`\n${decoded.length} pages, ${megabytes.toFixed(1)} MB; sniff + decode: ${(megabytes / decodeSeconds).toFixed(0)} MB/s`);

  for (const extract of Object.values(PARSERS)) time(decoded, extract); // warm-up
  const totals = Object.fromEntries(Object.keys(PARSERS).map((name) => [name, { wall: 0, cpu: 0 }])) as Record<keyof typeof PARSERS, Timing>;
  const add = (total: Timing, t: Timing) => {
    total.wall += t.wall;
    total.cpu += t.cpu;
  };
  for (let pass = 0; pass < PASSES; pass++) for (const [name, extract] of Object.entries(PARSERS)) add(totals[name as keyof typeof PARSERS], time(decoded, extract));
  console.log(`parser      MB/s (wall)  MB/s (CPU)  pages/s (CPU), ${PASSES} passes each, interleaved`);
  for (const [name, t] of Object.entries(totals)) {
    const rate = (amount: number, seconds: number) => (amount / (seconds / PASSES)).toFixed(1).padStart(10);
    console.log(`${name.padEnd(11)} ${rate(megabytes, t.wall)}  ${rate(megabytes, t.cpu)}  ${rate(decoded.length, t.cpu)}`);
  }

  for (const [other, extract] of [['htmlparser2', htmlparser2Links], ['sax', saxLinks]] as const) {
    let sameLinks = 0, sameText = 0, linksT = 0, linksO = 0;
    const disagreements: string[] = [];
    for (const page of decoded) {
      const t = scannerLinks(page.text), o = extract(page.text);
      linksT += t.length;
      linksO += o.length;
      const linksAgree = key(t) === key(o);
      if (linksAgree) sameLinks++;
      if (linksAgree && keyWithText(t) === keyWithText(o)) sameText++;
      else disagreements.push(`${page.path}: ${firstDifference(t, o, other)}`);
    }
    console.log(`\ntarantula against ${other}: links found ${linksT} and ${linksO}`);
    console.log(`pages where both find the same links in the same order: ${sameLinks} of ${decoded.length}`);
    console.log(`... and the same anchor texts too: ${sameText} of ${decoded.length}`);
    console.log(`disagreements (${disagreements.length}):`);
    for (const line of disagreements.slice(0, 20)) console.log(`  ${line}`);
    if (disagreements.length > 20) console.log(`  ... and ${disagreements.length - 20} more`);
  }
}

main();

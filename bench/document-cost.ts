/**
 * The document worker's CPU a page, without the crawl around it: the synthetic web's pages (as
 * bench/run.ts serves them) through the worker's own handler — decode, parse, SimHash, links
 * through scope and lists, and (with `--store`) the mirror's synchronous write into a temporary
 * folder — and through its parts alone. Prints µs a page for each, the best and the median of
 * `--rounds` passes over `--pages` pages.
 *
 *   npx tsx bench/document-cost.ts [--pages 2000] [--rounds 7] [--store] [--only NAME] [--root DIR]
 *
 * `--only NAME` runs only the cases whose name starts with NAME (say `handler`, under `--cpu-prof`).
 * `--root DIR` measures another checkout's `src/` (say, a worktree of the base build) with this
 * same driver, so that two builds are compared on the same pages in the same minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderPage, type SyntheticWeb } from './synthetic-web.js';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}

const pages = Number(flag('--pages', '2000'));
const rounds = Number(flag('--rounds', '7'));
const root = resolve(flag('--root', '.'));
const store = process.argv.includes('--store');
const load = (path: string): Promise<Record<string, any>> => import(pathToFileURL(join(root, 'src', path)).href);

const { documentHandler } = await load('workers/document-handler.ts');
const { decodeText } = await load('parse/encoding-label.ts');
const { extractHtml } = await load('parse/extract-html.ts');
const { SimHasher } = await load('parse/simhash.ts');

const web: SyntheticWeb = { pages: 20_000, hosts: 50, port: 8080 };
const bodies = Array.from({ length: pages }, (_, i) => new Uint8Array(Buffer.from(renderPage(i, web))));
const urls = bodies.map((_, i) => `http://h${i % web.hosts}.bench.test:8080/p/${i}.html`);
const texts = bodies.map((b) => decodeText(b, 'utf-8') as string);

const repository = mkdtempSync(join(tmpdir(), 'document-cost-'));
let round = 0;
// Each pass stores into a folder of its own, so that every page takes a new name as in a crawl.
const handler = (): ((job: object) => Promise<any>) => documentHandler({
  repository: join(repository, String(round++)), policy: { scope: 'domain-scope', seeds: ['http://bench.test:8080/'], accept: [], reject: [] },
  agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0,
}, true);

let sink = 0;
const cases: [string, () => Promise<void> | void][] = [
  ['decode', () => { for (const b of bodies) sink += (decodeText(b, 'utf-8') as string).length; }],
  ['simhash alone', () => { for (const t of texts) { const h = new SimHasher(); h.text(t, 0, t.length); sink += h.digest().length; } }],
  ['extract (no simhash)', () => { for (const t of texts) sink += extractHtml(t).links.length; }],
  ['extract + simhash', () => { for (const t of texts) sink += extractHtml(t, { simhash: true }).links.length; }],
  [store ? 'handler (describe + store)' : 'handler (describe)', async () => {
    const handle = handler();
    for (let i = 0; i < pages; i++) {
      const r = await handle({ id: i, url: urls[i], contentType: 'text/html; charset=utf-8', xRobotsTag: undefined, body: bodies[i], store });
      sink += r.description.links.length;
    }
  }],
];

const only = flag('--only', '');
const chosen = cases.filter(([name]) => name.startsWith(only));
const times = new Map<string, number[]>(chosen.map(([name]) => [name, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of chosen) {
    const start = process.cpuUsage();
    await run();
    const used = process.cpuUsage(start);
    times.get(name)!.push((used.user + used.system) / pages);
  }
}
rmSync(repository, { recursive: true, force: true });
for (const [name, t] of times) {
  const sorted = [...t].sort((a, b) => a - b);
  console.log(`${name.padEnd(28)} best ${sorted[0]!.toFixed(1).padStart(6)} µs  median ${sorted[sorted.length >> 1]!.toFixed(1).padStart(6)} µs a page`);
}
if (sink === 0) console.log('');

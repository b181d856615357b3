/**
 * `tarantula pagerank` on a generated 1M-edge link graph: time of each phase, and peak RSS.
 *
 *   npx tsx bench/pagerank.ts [EDGES] [PAGES]
 *
 * Writes a deterministic edges-format index (default 1,000,000 links among 100,000 pages on 500
 * hosts, link targets skewed towards a few popular pages, about 5% of pages without links) to a
 * temp folder, then ranks it in fresh child processes, so that each peak RSS is the ranking's alone:
 * once phase by phase, then as `tarantula pagerank` runs (`--top 10` and `--top 0`).
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { runPagerank } from '../src/cli/run-pagerank.js';
import { formatRanking } from '../src/pagerank/format-ranking.js';
import { pagerank } from '../src/pagerank/pagerank.js';
import { rankPages } from '../src/pagerank/rank-pages.js';
import { readLinkGraph } from '../src/pagerank/read-link-graph.js';

/** mulberry32: a small seeded generator, so every run ranks the same graph. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const url = (i: number): string => `http://site${i % 500}.example/section/${i >>> 4}/page-${i}.html`;

async function generate(path: string, edges: number, pages: number): Promise<void> {
  const next = random(42);
  const mean = edges / (pages * 0.95);
  const out = createWriteStream(path);
  let written = 0;
  let batch = '';
  // a page's links are one run of lines, as the crawler writes them; a second pass (if the degrees
  // fell short) brings FROMs back later in the file, which the reader must merge
  for (let from = 0; written < edges; from = (from + 1) % pages) {
    if (next() < 0.05) continue; // dangling: never a FROM
    const degree = Math.min(edges - written, 1 + Math.floor(next() * (2 * mean - 1)));
    const source = url(from);
    for (let k = 0; k < degree; k++) batch += `${source}\t${url(Math.floor(pages * next() ** 3))}\n`;
    written += degree;
    if (batch.length < 1 << 20) continue;
    const ok = out.write(batch);
    batch = '';
    if (!ok) await once(out, 'drain');
  }
  out.end(batch);
  await finished(out);
}

const seconds = (since: bigint): string => (Number(process.hrtime.bigint() - since) / 1e9).toFixed(3);
const mib = (kib: number): string => (kib / 1024).toFixed(0);
const discard = (): Writable => new Writable({ write: (_c, _e, done) => done() });

/** A child: each phase on its own, timed. */
async function phases(path: string): Promise<void> {
  let t = process.hrtime.bigint();
  const graph = await readLinkGraph(path);
  console.log(`  read + build graph   ${seconds(t)} s  (${graph.urls.length} pages, ${graph.targets.length} distinct links)`);
  t = process.hrtime.bigint();
  const result = pagerank(graph);
  console.log(`  power iteration      ${seconds(t)} s  (${result.iterations} iterations, last change ${result.delta.toExponential(2)})`);
  t = process.hrtime.bigint();
  const all = rankPages(graph, result.scores, 0);
  console.log(`  sort all pages       ${seconds(t)} s`);
  t = process.hrtime.bigint();
  let chars = 0;
  for (const line of formatRanking(all, 'table')) chars += line.length;
  console.log(`  format all (table)   ${seconds(t)} s  (${(chars / 2 ** 20).toFixed(1)} MiB)`);
  console.log(`  peak RSS             ${mib(process.resourceUsage().maxRSS)} MiB`);
}

/** A child: the whole command as the CLI runs it, to a sink that discards. */
async function command(path: string, top: number): Promise<void> {
  const t = process.hrtime.bigint();
  const code = await runPagerank(path, { top, format: 'table', damping: 0.85 }, discard());
  console.log(`  total                ${seconds(t)} s  (exit ${code})`);
  console.log(`  peak RSS             ${mib(process.resourceUsage().maxRSS)} MiB`);
}

async function main(): Promise<void> {
  const [edges = 1_000_000, pages = 100_000] = process.argv.slice(2).map(Number);
  const dir = await mkdtemp(join(tmpdir(), 'pagerank-bench-'));
  try {
    const path = join(dir, 'index.edges');
    const t = process.hrtime.bigint();
    await generate(path, edges, pages);
    console.log(`generated ${edges} edges among up to ${pages} pages (${((await stat(path)).size / 2 ** 20).toFixed(0)} MiB) in ${seconds(t)} s`);
    console.log(`node ${process.version}`);
    const self = fileURLToPath(import.meta.url);
    const child = (title: string, ...args: string[]): void => {
      console.log(title);
      spawnSync(process.execPath, [...process.execArgv, self, ...args, path], { stdio: 'inherit' });
    };
    child('phases (one process):', '--phases');
    child('runPagerank --top 10 (fresh process):', '--top', '10');
    child('runPagerank --top 0, every page (fresh process):', '--top', '0');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const [mode, arg, file] = process.argv.slice(2);
if (mode === '--phases') await phases(arg as string);
else if (mode === '--top') await command(file as string, Number(arg));
else await main();

/**
 * The seen-set in memory and spilled (`npx tsx bench/seen-set.ts [--urls 20000000] [--budget-mb 32]`):
 * adds `--urls` distinct URLs (60 characters, as a broad crawl's links) to `fingerprintSet` and to
 * `spillingSeenSet` with a budget of `--budget-mb`, then looks up as many URLs it holds and as many it
 * does not. Prints the rates (per second, whole process on one core), the disk bytes per seen URL
 * (the runs once merged), the runs, and the process's peak RSS for each (each in a child process of
 * its own, so that one's memory is not the other's). Between batches of 10,000 adds the event loop
 * turns, as a crawl's does, so that merges run in the background.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprintSet, spillingSeenSet, type SeenSet } from '../src/frontier/seen-set.js';

const value = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const urls = value('--urls', 20_000_000);
const budgetMb = value('--budget-mb', 32);
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

const urlOf = (i: number, salt = 'p'): string => `http://h${i % 100_000}.bench.test/${salt}/${(i * 2654435761) >>> 0}/${i}.html`;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function measure(kind: 'memory' | 'spilled'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tarantula-seen-bench-'));
  const seen: SeenSet & { spilled?: number; runs?: number; close?: () => Promise<void> } =
    kind === 'memory' ? fingerprintSet() : spillingSeenSet({ dir: join(dir, 'seen'), budgetBytes: budgetMb << 20 });
  let t = process.hrtime.bigint();
  for (let i = 0; i < urls; i++) {
    seen.add(urlOf(i));
    if (i % 10_000 === 0) await turn();
  }
  const addS = Number(process.hrtime.bigint() - t) / 1e9;
  // The merges still running after the last add, so that the look-ups meet the runs as a long crawl has them.
  while ((seen.runs ?? 0) > Math.log2(urls / 1e6) + 2) await new Promise((resolve) => setTimeout(resolve, 100));
  const lookups = Math.min(urls, 2_000_000);
  t = process.hrtime.bigint();
  let found = 0;
  for (let i = 0; i < lookups; i++) if (seen.has(urlOf(Math.floor((i * urls) / lookups)))) found++;
  const hasS = Number(process.hrtime.bigint() - t) / 1e9;
  t = process.hrtime.bigint();
  let absent = 0;
  for (let i = 0; i < lookups; i++) if (!seen.has(urlOf(i, 'q'))) absent++;
  const missS = Number(process.hrtime.bigint() - t) / 1e9;
  if (found !== lookups || absent !== lookups) throw new Error(`inexact: ${found} found, ${absent} absent of ${lookups}`);
  let bytes = 0;
  try {
    // The runs, not a merge's output under way (a merge needs room for its output besides its inputs until it ends).
    for (const f of readdirSync(join(dir, 'seen'))) if (!f.endsWith('.merging')) bytes += statSync(join(dir, 'seen', f)).size;
  } catch {
    // Nothing spilled.
  }
  const rate = (n: number, s: number): string => `${Math.round(n / s).toLocaleString('en-US')}/s`;
  console.log(JSON.stringify({
    kind, urls, ...(kind === 'spilled' ? { budgetMb, spilled: seen.spilled, runs: seen.runs, diskBytesPerSpilledUrl: +(bytes / (seen.spilled || 1)).toFixed(2) } : {}),
    add: rate(urls, addS), hasPresent: rate(lookups, hasS), hasAbsent: rate(lookups, missS),
    peakRssMb: Math.round(Number(execFileSync('sh', ['-c', `grep VmHWM /proc/${process.pid}/status`]).toString().match(/\d+/)![0]) / 1024),
  }));
  await seen.close?.();
  rmSync(dir, { recursive: true, force: true });
}

if (only === 'memory' || only === 'spilled') await measure(only);
else
  for (const kind of ['memory', 'spilled'])
    execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--urls', String(urls), '--budget-mb', String(budgetMb), '--only', kind], { stdio: 'inherit' });

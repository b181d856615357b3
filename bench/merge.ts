/**
 * How long `tarantula merge` takes, and its peak RSS, on two large parts (the built CLI, under
 * /usr/bin/time): each part a journal of `--pages` documents with 20-link records, their mirror files
 * (2 KB each) and one WARC's CDXJ of a line per page, in crawl order; `--overlap` of the URLs are in
 * both parts (fetched again by the second). Prints the wall time, peak RSS and the merged counts.
 *
 *   npm run build && tsx bench/merge.ts [--pages 100000] [--overlap 0.1]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cdxjLine } from '../src/archive/cdxj.js';
import type { IndexRecord } from '../src/model/index-record.js';
import { JournalWriter } from '../src/state/journal-writer.js';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const PAGES = arg('pages', 100_000);
const OVERLAP = arg('overlap', 0.1);
const CLI = fileURLToPath(new URL('../bin/tarantula', import.meta.url));
const BODY = 'x'.repeat(2048);

const url = (i: number): string => `http://h${i % 50}.bench.test/p/${i}.html`;
const record = (i: number, fetchedAt: string): IndexRecord => ({
  md5: createHash('md5').update(url(i)).digest('hex'), url: url(i), originalUrl: `${i}.html`, title: `Page ${i}`, encoding: 'utf-8', type: 'html',
  lastModified: null, serverDate: 'Mon, 30 Nov 2026 02:29:50 GMT', status: 200, etag: null,
  localPath: `h${i % 50}.bench.test/p/${i}.html`, contentLength: BODY.length, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 5,
  fetchedAt, durationMs: 3, duplicateOf: null,
  links: Array.from({ length: 20 }, (_, k) => ({ url: url(i * 7 + k), text: `link ${k}` })),
});

/** A part holding pages [from, to): journal, mirror, WARC CDXJ (the WARC a stand-in: merge links it, never reads it). */
async function makePart(dir: string, from: number, to: number, fetchedAt: string): Promise<void> {
  await mkdir(join(dir, '.tarantula'), { recursive: true });
  await mkdir(join(dir, 'warc'), { recursive: true });
  const journal = await JournalWriter.open(join(dir, '.tarantula', 'journal.jsonl'));
  const folders = new Set<string>();
  let cdxj = '';
  for (let i = from; i < to; i++) {
    const rec = record(i, fetchedAt);
    journal.append(['d', rec.url, rec, 'text/html', true]);
    const file = join(dir, rec.localPath);
    if (!folders.has(dirname(file))) await mkdir(dirname(file), { recursive: true });
    folders.add(dirname(file));
    await writeFile(file, BODY);
    cdxj += cdxjLine({ url: rec.url, date: fetchedAt, mime: 'text/html', status: 200, digest: 'D', length: 2500, offset: 2500 * (i - from), filename: 'crawl-0-00000.warc.gz' });
    if (i % 1000 === 0) await journal.flush();
  }
  journal.append(['end', fetchedAt]);
  await journal.close();
  await writeFile(join(dir, 'warc', 'crawl-0-00000.cdxj'), cdxj);
  await writeFile(join(dir, 'warc', 'crawl-0-00000.warc.gz'), '');
  await writeFile(join(dir, 'stats.json'), JSON.stringify({ documents: to - from, completed: true }));
}

const work = await mkdtemp(join(tmpdir(), 'merge-bench-'));
try {
  const shared = Math.round(PAGES * OVERLAP);
  await makePart(join(work, 'a'), 0, PAGES, '2026-12-01T09:00:00.000Z');
  await makePart(join(work, 'b'), PAGES - shared, 2 * PAGES - shared, '2026-12-02T09:00:00.000Z');
  const run = spawnSync('/usr/bin/time', ['-f', '%e s wall, %U s user, %S s sys, peak RSS %M KB', CLI, 'merge', join(work, 'all'), join(work, 'a'), join(work, 'b')], { encoding: 'utf8' });
  process.stdout.write(`${PAGES} pages a part, ${shared} in both:\n${run.stderr}`);
  if (run.status !== 0) process.exitCode = 1;
} finally {
  await rm(work, { recursive: true, force: true });
}

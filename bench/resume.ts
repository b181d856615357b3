/**
 * How long a resume takes to read back the crawl journal of a large crawl (`npm run bench:resume`):
 * writes the journal of an interrupted 100k-page crawl (each page admitted, fetched with a 20-link
 * record; 50k more URLs still pending), then times openCrawlState (seen-set and frontier rebuilt)
 * and the replay that rewrites the index.
 *
 *   tsx bench/resume.ts [--pages 100000]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintSet } from '../src/frontier/seen-set.js';
import type { IndexRecord } from '../src/model/index-record.js';
import { openCrawlState } from '../src/state/crawl-state.js';

const at = process.argv.indexOf('--pages');
const PAGES = at >= 0 ? Number(process.argv[at + 1]) : 100_000;
const url = (i: number) => `http://h${i % 50}.bench.test/p/${i}.html`;

const record = (i: number): IndexRecord => ({
  md5: 'd41d8cd98f00b204e9800998ecf8427e', url: url(i), originalUrl: `${i}.html`, title: `Page ${i}`, encoding: 'utf-8', type: 'html',
  lastModified: 'Mon, 30 Nov 2026 02:27:02 GMT', serverDate: 'Mon, 30 Nov 2026 02:29:50 GMT', status: 200, etag: `"${i}"`,
  localPath: `h${i % 50}.bench.test/p/${i}.html`, contentLength: 10_000, contentMd5: 'd41d8cd98f00b204e9800998ecf8427e', depth: 5,
  fetchedAt: '2026-11-30T02:29:50.000Z', durationMs: 3, duplicateOf: null,
  links: Array.from({ length: 20 }, (_, k) => ({ url: url(i * 7 + k), text: `link ${k}` })),
});

const repo = await mkdtemp(join(tmpdir(), 'resume-bench-'));
try {
  const first = await openCrawlState(repo, fingerprintSet());
  const total = Math.round(PAGES * 1.5);
  for (let i = 0; i < total; i++) {
    first.journal.append(['a', url(i), 5, `${i}.html`, 0]);
    if (i < PAGES) first.journal.append(['d', url(i), record(i), 'text/html', true]);
    if (i % 1000 === 0) await first.journal.flush();
  }
  await first.journal.close();
  const bytes = (await stat(join(repo, '.tarantula', 'journal.jsonl'))).size;

  const started = performance.now();
  const state = await openCrawlState(repo, fingerprintSet());
  const opened = performance.now();
  let records = 0;
  await state.replay(() => records++);
  const replayed = performance.now();
  await state.journal.close();
  console.log(`journal of ${PAGES.toLocaleString('en')} pages: ${(bytes / 2 ** 20).toFixed(1)} MiB, ${((bytes / PAGES) | 0).toLocaleString('en')} bytes and 2 lines per page`);
  console.log(`resume: state rebuilt in ${((opened - started) / 1000).toFixed(2)} s (${state.pending.length.toLocaleString('en')} pending, ${state.documents.toLocaleString('en')} done), index replayed in ${((replayed - opened) / 1000).toFixed(2)} s (${records.toLocaleString('en')} records, ${state.relinks.length.toLocaleString('en')} links re-admitted)`);
} finally {
  await rm(repo, { recursive: true, force: true });
}

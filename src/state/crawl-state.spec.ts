import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { IndexRecord } from '../model/index-record.js';
import type { CrawlRequest } from '../model/crawl-request.js';
import { openCrawlState, type CrawlState } from './crawl-state.js';

const pendingOf = async (state: CrawlState): Promise<CrawlRequest[]> => {
  const out: CrawlRequest[] = [];
  for await (const req of state.pending()) out.push(req);
  return out;
};

const record = (url: string, links: string[] = []): IndexRecord => ({
  md5: 'x', url, originalUrl: url, title: 't', encoding: 'utf-8', type: 'html', lastModified: null, serverDate: null, status: 200,
  etag: '"e"', localPath: 'h/x.html', contentLength: 1, contentMd5: 'y', depth: 0, fetchedAt: '2026-01-01T00:00:00.000Z', durationMs: 1,
  duplicateOf: null, links: links.map((u) => ({ url: u, text: '' })),
});

describe('openCrawlState', () => {
  let repo: string;
  beforeEach(async () => {
    repo = await mkdtemp(join(tmpdir(), 'state-'));
  });
  afterEach(() => rm(repo, { recursive: true, force: true }));

  const journal = () => join(repo, '.tarantula', 'journal.jsonl');

  it('starts fresh in an empty repository', async () => {
    const state = await openCrawlState(repo, fingerprintSet());
    expect([state.resumed, state.recrawl, state.pendingCount, state.documents]).toEqual([false, false, 0, 0]);
    await state.journal.close();
  });

  it('reads the pending requests from the journal as they are taken, in admission order, and none this run appended', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    for (const p of ['1', '2', '3', '4']) first.journal.append(['a', `http://h/${p}`, 1, p, 0]);
    first.journal.append(['x', 'http://h/2', 'failed']);
    first.journal.append(['l', 'http://h/3', 2]);
    first.journal.append(['l', 'http://h/4', 3]);
    first.journal.append(['d', 'http://h/4', record('http://h/4'), 'text/html', true]);
    await first.journal.close();

    const state = await openCrawlState(repo, fingerprintSet());
    state.journal.append(['a', 'http://h/new', 1, 'new', 0]);
    await state.journal.flush();
    expect(state.pendingCount).toBe(2);
    expect((await pendingOf(state)).map((r) => [r.url, r.level ?? 1])).toEqual([['http://h/1', 1], ['http://h/3', 2]]);
    await state.journal.close();
  });

  it('reads an original URL written as null as the URL itself, and one written out as written', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    first.journal.append(['a', 'http://h/1', 1, null, 0, null, 2]);
    first.journal.append(['a', 'http://h/2', 1, '2#top', 0]);
    await first.journal.close();
    const state = await openCrawlState(repo, fingerprintSet());
    expect((await pendingOf(state)).map((r) => [r.url, r.originalUrl, r.level ?? 1])).toEqual([['http://h/1', 'http://h/1', 2], ['http://h/2', '2#top', 1]]);
    await state.journal.close();
  });

  it('resumes: admitted but unfinished URLs are pending, lost links are admitted again, a torn line is skipped', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    first.journal.append(['a', 'http://h/', 0, 'http://h/', 0]);
    first.journal.append(['a', 'http://h/a', 1, 'a', 0, null, 3]);
    first.journal.append(['d', 'http://h/', record('http://h/', ['http://h/a', 'http://h/lost']), 'text/html', true]);
    first.journal.append(['a', 'http://h/r', 1, 'r', 0]);
    first.journal.append(['r', 'http://h/r', '/target', 1, 'r', 0]);
    await first.journal.close();
    await appendFile(journal(), '["a","http://h/tor');

    const seen = fingerprintSet();
    const started = fingerprintSet();
    const state = await openCrawlState(repo, seen, started);
    expect(state.resumed).toBe(true);
    // What the interrupted run finished counts as started: found again, it is not taken for a URL still waiting.
    expect([started.has('http://h/'), started.has('http://h/r'), started.has('http://h/a')]).toEqual([true, true, false]);
    expect(await pendingOf(state)).toMatchObject([{ url: 'http://h/a', level: 3 }]);
    expect(state.documents).toBe(1);
    expect(seen.has('http://h/a') && seen.has('http://h/')).toBe(true);
    const replayed: string[] = [];
    await state.replay((rec) => replayed.push(rec.url));
    expect(replayed).toEqual(['http://h/']);
    expect(state.relinks.map((c) => c.url ?? c.href)).toEqual(['http://h/lost', '/target']);
    expect(state.relinks[1]).toMatchObject({ base: 'http://h/r', depth: 1, originalUrl: 'r', redirects: 1 });
    await state.journal.close();
  });

  it('resumes a pending URL at the highest level later links moved it to, and ignores a level line of an ended one', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    first.journal.append(['a', 'http://h/a', 1, 'a', 0, null, 1]);
    first.journal.append(['a', 'http://h/b', 1, 'b', 0, null, 1]);
    first.journal.append(['l', 'http://h/a', 3]);
    first.journal.append(['l', 'http://h/a', 2]);
    first.journal.append(['l', 'http://h/b', 4]);
    first.journal.append(['x', 'http://h/b', 'failed']);
    await first.journal.close();
    const state = await openCrawlState(repo, fingerprintSet());
    expect(await pendingOf(state)).toEqual([expect.objectContaining({ url: 'http://h/a', level: 3 })]);
    await state.journal.close();
  });

  it('counts a sitemap read as done, but reads again one among the last writes, whose URLs a kill may have lost', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    first.journal.append(['a', 'http://h/sitemap.xml', 0, 'http://h/sitemap.xml', 0, { sitemap: 0 }]);
    first.journal.append(['x', 'http://h/sitemap.xml', 'sitemap']);
    for (let i = 0; i < 1100; i++) {
      first.journal.append(['a', `http://h/${i}`, 1, `/${i}`, 0]);
      first.journal.append(['x', `http://h/${i}`, 'failed']);
    }
    first.journal.append(['a', 'http://g/sitemap.xml', 0, 'http://g/sitemap.xml', 0, { sitemap: 0 }]);
    first.journal.append(['x', 'http://g/sitemap.xml', 'sitemap']);
    await first.journal.close();
    const started = fingerprintSet();
    const state = await openCrawlState(repo, fingerprintSet(), started);
    expect(await pendingOf(state)).toEqual([expect.objectContaining({ url: 'http://g/sitemap.xml', sitemap: 0 })]);
    expect([started.has('http://h/sitemap.xml'), started.has('http://g/sitemap.xml')]).toEqual([true, false]);
    await state.journal.close();
  });

  it('turns a completed crawl into the known pages of a recrawl, with a fresh journal', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    first.journal.append(['a', 'http://h/', 0, 'http://h/', 0]);
    first.journal.append(['d', 'http://h/', record('http://h/'), 'text/html; charset=utf-8', true]);
    await first.complete();
    await first.journal.close();

    const state = await openCrawlState(repo, fingerprintSet());
    expect([state.recrawl, state.resumed]).toEqual([true, false]);
    expect(state.known.get('http://h/')).toMatchObject({ contentType: 'text/html; charset=utf-8', record: { etag: '"e"' } });
    await state.journal.close();
    expect((await readFile(journal(), 'utf8')).split('\n')[0]).toMatch(/^\["start",/);
  });

  it('carries over the pages a recrawl does not request: journaled once, links to admit, not counted as fetched on resume', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    for (const [url, noindex] of [['http://h/due', false], ['http://h/later', false], ['http://h/hidden', true]] as const) {
      first.journal.append(['a', url, 0, url, 0]);
      first.journal.append(['d', url, record(url, ['http://h/linked']), 'text/html', !noindex]);
    }
    await first.complete();
    await first.journal.close();

    const seen = fingerprintSet();
    const recrawl = await openCrawlState(repo, seen);
    const kept: [string, boolean][] = [];
    expect(recrawl.carryOver((rec) => rec.url !== 'http://h/due', (page) => kept.push([page.record.url, page.indexed]))).toBe(2);
    expect(kept).toEqual([['http://h/later', true], ['http://h/hidden', false]]);
    expect(seen.has('http://h/later') && !seen.has('http://h/due')).toBe(true);
    expect(recrawl.relinks).toMatchObject([{ url: 'http://h/linked', base: 'http://h/later', depth: 1 }, { url: 'http://h/linked', base: 'http://h/hidden' }]);
    await recrawl.journal.close(); // interrupted: no end marker

    const seenAgain = fingerprintSet();
    const resumed = await openCrawlState(repo, seenAgain);
    expect([resumed.resumed, resumed.documents, resumed.pendingCount]).toEqual([true, 0, 0]);
    expect(resumed.carryOver((rec) => rec.url !== 'http://h/due', () => undefined)).toBe(0);
    const indexed: string[] = [];
    const documents: string[] = [];
    await resumed.replay((rec) => indexed.push(rec.url), (rec) => documents.push(rec.url));
    expect(indexed).toEqual(['http://h/later']);
    expect(documents).toEqual(['http://h/later', 'http://h/hidden']);
    await resumed.journal.close();
  });

  it('keeps the seeds that widened the scope across a resume and into a recrawl, whose own journal gets them once', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    first.journal.append(['s', 'http://b.test/']);
    first.journal.append(['a', 'http://b.test/', 0, 'http://b.test/', 0]);
    first.journal.append(['d', 'http://b.test/', record('http://b.test/'), 'text/html', true]);
    await first.journal.close();
    const resumed = await openCrawlState(repo, fingerprintSet());
    expect(resumed.scopeSeeds).toEqual(['http://b.test/']);
    resumed.journal.append(['s', 'http://c.test/']);
    await resumed.complete();
    await resumed.journal.close();

    const recrawl = await openCrawlState(repo, fingerprintSet());
    expect(recrawl.recrawl).toBe(true);
    expect(recrawl.scopeSeeds).toEqual(['http://b.test/', 'http://c.test/']);
    await recrawl.journal.close();
    const again = await openCrawlState(repo, fingerprintSet()); // the recrawl, interrupted, resumed
    expect(again.scopeSeeds).toEqual(['http://b.test/', 'http://c.test/']);
    await again.journal.close();
    const lines = (await readFile(journal(), 'utf8')).split('\n').filter((l) => l.startsWith('["s"'));
    expect(lines).toEqual(['["s","http://b.test/"]', '["s","http://c.test/"]']);
  });
});

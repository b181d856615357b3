import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { IndexRecord } from '../output/record.js';
import { openCrawlState } from './crawl-state.js';

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
    expect([state.resumed, state.recrawl, state.pending.length, state.documents]).toEqual([false, false, 0, 0]);
    await state.journal.close();
  });

  it('resumes: admitted but unfinished URLs are pending, lost links are admitted again, a torn line is skipped', async () => {
    const first = await openCrawlState(repo, fingerprintSet());
    first.journal.append(['a', 'http://h/', 0, 'http://h/', 0]);
    first.journal.append(['a', 'http://h/a', 1, 'a', 0]);
    first.journal.append(['d', 'http://h/', record('http://h/', ['http://h/a', 'http://h/lost']), 'text/html', true]);
    first.journal.append(['a', 'http://h/r', 1, 'r', 0]);
    first.journal.append(['r', 'http://h/r', '/target', 1, 'r', 0]);
    await first.journal.close();
    await appendFile(journal(), '["a","http://h/tor');

    const seen = fingerprintSet();
    const state = await openCrawlState(repo, seen);
    expect(state.resumed).toBe(true);
    expect(state.pending.map((r) => r.url)).toEqual(['http://h/a']);
    expect(state.documents).toBe(1);
    expect(seen.has('http://h/a') && seen.has('http://h/')).toBe(true);
    const replayed: string[] = [];
    await state.replay((rec) => replayed.push(rec.url));
    expect(replayed).toEqual(['http://h/']);
    expect(state.relinks.map((c) => c.url ?? c.href)).toEqual(['http://h/lost', '/target']);
    expect(state.relinks[1]).toMatchObject({ base: 'http://h/r', depth: 1, originalUrl: 'r', redirects: 1 });
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

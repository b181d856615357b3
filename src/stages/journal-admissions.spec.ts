import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, of } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrawlRequest } from '../model/crawl-request.js';
import { JournalWriter } from '../state/journal-writer.js';
import { journalAdmissions } from './journal-admissions.js';

const req = (url: string, extra: Partial<CrawlRequest> = {}): CrawlRequest => ({ url, host: 'h', depth: 1, originalUrl: url, redirects: 0, attempt: 0, ...extra });

describe('journalAdmissions', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'admissions-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('journals each new URL with its level, and of a URL found again only a level above the lowest', async () => {
    const path = join(dir, 'journal.jsonl');
    const journal = await JournalWriter.open(path);
    await lastValueFrom(of(req('http://h/a', { level: 1 }), req('http://h/a', { level: 1, again: true }), req('http://h/a', { level: 3, again: true }), req('http://h/b', { again: true })).pipe(journalAdmissions(journal)));
    await journal.close();
    const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown[]);
    expect(lines).toEqual([['a', 'http://h/a', 1, null, 0, null, 1], ['l', 'http://h/a', 3]]);
  });

  it('writes the original URL only when it differs from the URL (null stands for the URL itself)', async () => {
    const path = join(dir, 'journal.jsonl');
    const journal = await JournalWriter.open(path);
    await lastValueFrom(of(req('http://h/a'), req('http://h/b', { originalUrl: 'b?#x' }), req('http://h/c', { sitemap: 1 })).pipe(journalAdmissions(journal)));
    await journal.close();
    const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown[]);
    expect(lines).toEqual([['a', 'http://h/a', 1, null, 0], ['a', 'http://h/b', 1, 'b?#x', 0], ['a', 'http://h/c', 1, null, 0, { sitemap: 1 }]]);
  });

  it('journals of a URL found again by depth-first only a level that rose', async () => {
    const path = join(dir, 'journal.jsonl');
    const journal = await JournalWriter.open(path);
    const rose = (r: CrawlRequest): boolean => r.url === 'http://h/b';
    await lastValueFrom(of(req('http://h/a', { level: 3, again: true }), req('http://h/b', { level: 3, again: true })).pipe(journalAdmissions(journal, rose)));
    await journal.close();
    const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown[]);
    expect(lines).toEqual([['l', 'http://h/b', 3]]);
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/keys.js';
import { createCrawlContext } from '../engine/crawl-context.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import type { IndexRecord } from '../model/index-record.js';
import { openCrawlState } from '../state/crawl-state.js';
import { openIndex } from './open-index.js';

const log = pino({ level: 'silent', customLevels: { page: 25 } }) as unknown as CrawlLogger;
const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
/** A copy has the content of the page it copies. */
const record = (url: string, links: string[], duplicateOf: string | null = null): IndexRecord => ({
  md5: 'x', url, originalUrl: url, title: 't', encoding: 'utf-8', type: 'html', lastModified: null, serverDate: null, status: 200,
  etag: null, localPath: 'h/x.html', contentLength: 1, contentMd5: md5(duplicateOf ?? url), depth: 0, fetchedAt: '2026-01-01T00:00:00.000Z', durationMs: 1,
  duplicateOf, links: links.map((u) => ({ url: u, text: '' })),
});

describe('openIndex', () => {
  let repository: string;
  beforeEach(async () => {
    repository = await mkdtemp(join(tmpdir(), 'open-index-'));
  });
  afterEach(() => rm(repository, { recursive: true, force: true }));

  async function resumed(priorityLevels: number) {
    const first = await openCrawlState(repository, fingerprintSet());
    first.journal.append(['d', 'http://a.test/', record('http://a.test/', ['http://a.test/x', 'http://a.test/y']), 'text/html', true]);
    first.journal.append(['d', 'http://a.test/2', record('http://a.test/2', ['http://a.test/x']), 'text/html', true]);
    first.journal.append(['d', 'http://a.test/3', record('http://a.test/3', ['http://a.test/x'], 'http://a.test/2'), 'text/html', true]);
    await first.journal.close();
    const seen = fingerprintSet();
    const config = { ...DEFAULT_CONFIG, startingPoints: ['http://a.test/'], repository, priorityLevels };
    const ctx = createCrawlContext(config, log, seen, await openCrawlState(repository, seen));
    const index = await openIndex(ctx, { home: repository, stdout: new PassThrough(), shared: false, onBrokenPipe: () => undefined });
    return { ctx, index };
  }

  it('counts the in-links the interrupted run had found, from its documents, a copy’s links not among them', async () => {
    const { ctx, index } = await resumed(4);
    expect([ctx.admission.inLinks.get('http://a.test/x'), ctx.admission.inLinks.get('http://a.test/y'), ctx.admission.inLinks.get('http://a.test/z')]).toEqual([2, 1, 0]);
    await Promise.all(index.writers.map((w) => w.close()));
    await ctx.state.journal.close();
    await ctx.close();
  });

  it('knows the content of the interrupted run’s pages, so that a page after the resume with the same content is a copy of the first', async () => {
    const { ctx, index } = await resumed(1);
    const seen = ctx.documents.contentSeen;
    expect([seen.first(md5('http://a.test/')), seen.first(md5('http://a.test/2')), seen.first(md5('http://a.test/3'))]).toEqual(['http://a.test/', 'http://a.test/2', undefined]);
    expect(seen.size).toBe(2);
    await Promise.all(index.writers.map((w) => w.close()));
    await ctx.state.journal.close();
    await ctx.close();
  });

  it('counts nothing with one priority level, where no prioritizer reads the counts', async () => {
    const { ctx, index } = await resumed(1);
    expect(ctx.admission.inLinks.get('http://a.test/x')).toBe(0);
    await Promise.all(index.writers.map((w) => w.close()));
    await ctx.state.journal.close();
    await ctx.close();
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/keys.js';
import { fingerprintSet } from '../frontier/seen-set.js';
import type { CrawlLogger } from '../log/create-logger.js';
import { openCrawlState } from '../state/crawl-state.js';
import { createCrawlContext } from './crawl-context.js';

let repository: string;
beforeEach(async () => {
  repository = await mkdtemp(join(tmpdir(), 'tarantula-context-'));
});
afterEach(() => rm(repository, { recursive: true, force: true }));

const log = pino({ level: 'silent', customLevels: { page: 25 } }) as unknown as CrawlLogger;

async function contextOf(overrides: Partial<typeof DEFAULT_CONFIG>) {
  const config = { ...DEFAULT_CONFIG, startingPoints: ['http://a.test/'], repository, ...overrides };
  const seen = fingerprintSet();
  return createCrawlContext(config, log, seen, await openCrawlState(repository, seen));
}

describe('createCrawlContext', () => {
  it('starts as many document worker threads as document-threads asks, and one fewer than the cores for 0', async () => {
    const two = await contextOf({ documentThreads: 2 });
    expect(two.documents.pool.threads).toBe(2);
    await two.close();
    await two.state.journal.close();
    const auto = await contextOf({ documentThreads: 0 });
    expect(auto.documents.pool.threads).toBeGreaterThanOrEqual(1);
    expect(auto.documents.pool.threads).toBeLessThanOrEqual(4);
    await auto.close();
    await auto.state.journal.close();
  });

  it('builds the link policy once: scope and lists hold on the main thread as in the configuration', async () => {
    const ctx = await contextOf({ scope: 'host-scope', rejectList: [/\.tmp$/] });
    expect(ctx.admission.policy.check('http://a.test/x', 'http://a.test/x')).toBeUndefined();
    expect(ctx.admission.policy.check('http://b.test/x', 'http://b.test/x')).toBe('out-of-scope');
    expect(ctx.admission.policy.check('x.tmp', 'http://a.test/x.tmp')).toBe('rejected');
    await ctx.close();
    await ctx.state.journal.close();
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentPool } from './document-pool.js';

// The pool runs the built worker (dist/workers/document-worker.js): `npm test` builds first.
describe('DocumentPool', () => {
  let repo: string;
  let pool: DocumentPool;
  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'pool-'));
    pool = new DocumentPool(
      { repository: repo, policy: { scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [['\\.tmp$', '']] }, agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0 },
      2,
      { jobs: 0 },
    );
  });
  afterAll(async () => {
    await pool.close();
    await rm(repo, { recursive: true, force: true });
  });

  const job = (url: string, html: string, store = true) => ({ url, contentType: 'text/html', xRobotsTag: undefined, body: Buffer.from(html), store });

  it('describes and stores documents on worker threads, with the crawl policy', async () => {
    const result = await pool.run(job('http://a.test/p', '<title>P</title><a href="q">Q</a><a href="x.tmp">T</a><a href="http://b.test/">B</a>'));
    expect(result).toMatchObject({
      localPath: 'a.test/p.html',
      description: { type: 'html', title: 'P', links: [{ url: 'http://a.test/q', text: 'Q', href: 'q' }] },
      dropped: [['rejected', 'http://a.test/x.tmp'], ['out-of-scope', 'http://b.test/']],
    });
    const kept = await pool.run(job('http://a.test/kept', '<title>K</title>', false));
    expect('description' in kept && kept.localPath).toBeUndefined();
  });

  it('replaces a worker that died, so later jobs are still answered', async () => {
    const slots = (pool as unknown as { slots: { worker: import('node:worker_threads').Worker }[] }).slots;
    const dead = slots.map((slot) => slot.worker);
    await Promise.all(dead.map((worker) => worker.terminate()));
    const result = await pool.run(job('http://a.test/after', '<title>after</title>'));
    expect('description' in result && result.description.title).toBe('after');
    expect(slots.every((slot, i) => slot.worker !== dead[i])).toBe(true);
  });

  it('handles jobs on the calling thread until a worker is ready, then on the workers', async () => {
    const setup = { repository: repo, policy: { scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [] }, agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0 } as const;
    const internals = (p: DocumentPool) => p as unknown as { local: unknown; slots: { ready: boolean }[] };
    const early = new DocumentPool(setup, 1, { jobs: 0 });
    const late = new DocumentPool(setup, 1, { jobs: 0 });
    try {
      const first = await early.run(job('http://a.test/early', '<title>early</title>'));
      expect('description' in first && first.description.title).toBe('early');
      expect(internals(early).local).toBeDefined();
      while (!internals(late).slots.every((slot) => slot.ready)) await new Promise((resolve) => setTimeout(resolve, 10));
      const second = await late.run(job('http://a.test/late', '<title>late</title>'));
      expect('description' in second && second.description.title).toBe('late');
      expect(internals(late).local).toBeUndefined();
    } finally {
      await Promise.all([early.close(), late.close()]);
    }
  });

  it('describes links under seeds that widened the scope, on the workers and on the calling thread, and after a worker is replaced', async () => {
    const setup = { repository: repo, policy: { scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [] }, agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0 } as const;
    const links = async (p: DocumentPool) => {
      const r = await p.run(job('http://a.test/w', '<a href="http://b.test/x">B</a><a href="http://c.test/">C</a>', false));
      return 'description' in r ? r.description.links.map((l) => l.url) : r.error;
    };
    const fresh = new DocumentPool(setup, 1, { jobs: 0 });
    try {
      fresh.widenScope('http://b.test/');
      expect(await links(fresh)).toEqual(['http://b.test/x']); // the calling thread, before the worker is up
      const slots = (fresh as unknown as { slots: { ready: boolean; worker: import('node:worker_threads').Worker }[] }).slots;
      while (!slots.every((slot) => slot.ready)) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await links(fresh)).toEqual(['http://b.test/x']);
      fresh.widenScope('http://c.test/');
      expect(await links(fresh)).toEqual(['http://b.test/x', 'http://c.test/']);
      await slots[0]!.worker.terminate();
      while (!slots.every((slot) => slot.ready)) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await links(fresh)).toEqual(['http://b.test/x', 'http://c.test/']);
    } finally {
      await fresh.close();
    }
  });

  it('starts its workers only once the calling thread has handled the jobs or the bytes it is given first', async () => {
    const setup = { repository: repo, policy: { scope: 'host-scope', seeds: ['http://a.test/'], accept: [], reject: [] }, agent: 'tarantula', obeyRelNofollow: true, maxLinksPerPage: 0 } as const;
    const slots = (p: DocumentPool) => (p as unknown as { slots: { ready: boolean }[] }).slots;
    const byJobs = new DocumentPool(setup, 2, { jobs: 3 });
    const byBytes = new DocumentPool(setup, 1, { jobs: 100, bytes: 1000 });
    try {
      for (const i of [1, 2]) await byJobs.run(job(`http://a.test/j${i}`, '<title>j</title>', false));
      expect(slots(byJobs)).toHaveLength(0);
      const third = await byJobs.run(job('http://a.test/j3', '<title>third</title>', false));
      expect('description' in third && third.description.title).toBe('third'); // still here: no worker is ready yet
      expect(slots(byJobs)).toHaveLength(2);
      await byBytes.run(job('http://a.test/small', '<title>s</title>', false));
      expect(slots(byBytes)).toHaveLength(0);
      await byBytes.run(job('http://a.test/big', `<title>b</title>${'x'.repeat(1000)}`, false));
      expect(slots(byBytes)).toHaveLength(1);
      while (!slots(byJobs).every((slot) => slot.ready)) await new Promise((resolve) => setTimeout(resolve, 10));
      const later = await byJobs.run(job('http://a.test/later', '<title>later</title>', false));
      expect('description' in later && later.description.title).toBe('later');
      expect(byJobs.threads).toBe(2);
    } finally {
      await Promise.all([byJobs.close(), byBytes.close()]);
    }
  });

  it('answers many jobs at once, each with its own result', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => pool.run(job(`http://a.test/n${i}`, `<title>n${i}</title>`))));
    expect(results.map((r) => ('description' in r ? r.description.title : r.error))).toEqual(Array.from({ length: 50 }, (_, i) => `n${i}`));
  });
});

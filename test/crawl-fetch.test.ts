import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureHooks } from '../src/demo/fixture-server.js';
import { readStats, startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { parseJsonl } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

const page = (title: string, body = ''): string => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`;
const LINKS = ['flaky.html', 'busy.html', 'broken.html', 'gone.html', 'gzip.html', 'deflate.html', 'br.html', 'big.html'];
/** Over max-body-size (below), so it is cut. */
const BIG = page('Big', 'x'.repeat(5_000));

interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}
const ok = (body: string | Buffer, headers: Record<string, string> = {}): Answer => ({ status: 200, headers: { 'Content-Type': 'text/html', ...headers }, body });

/**
 * fetch.test: flaky.html fails once with 503, busy.html once with 429 and Retry-After: 1,
 * broken.html always with 500, gone.html is 404; three pages come compressed, and big.html is
 * larger than max-body-size. `n` counts the requests for the path.
 */
function answer(path: string, n: number): Answer {
  switch (path) {
    case '/': return ok(page('Fetching', LINKS.map((l) => `<a href="${l}">${l}</a>`).join(' ')));
    case '/flaky.html': return n === 1 ? { status: 503 } : ok(page('Flaky'));
    case '/busy.html': return n === 1 ? { status: 429, headers: { 'Retry-After': '1' } } : ok(page('Busy'));
    case '/broken.html': return { status: 500 };
    case '/gzip.html': return ok(gzipSync(page('Gzipped')), { 'Content-Encoding': 'gzip' });
    case '/deflate.html': return ok(deflateSync(page('Deflated')), { 'Content-Encoding': 'deflate' });
    case '/br.html': return ok(brotliCompressSync(page('Brotli')), { 'Content-Encoding': 'br' });
    case '/big.html': return ok(BIG);
    default: return { status: 404 };
  }
}

function fetchWeb(): FixtureHooks {
  const counts = new Map<string, number>();
  return {
    handle: (_req, res, at) => {
      if (at.host !== 'fetch.test') return false;
      const n = (counts.get(at.path) ?? 0) + 1;
      counts.set(at.path, n);
      const { status, headers = {}, body } = answer(at.path, n);
      res.writeHead(status, headers).end(body);
      return true;
    },
  };
}

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun;
let repo: string;
let records: Record<string, unknown>[];
beforeAll(async () => {
  tmp = await tempDir();
  web = await startWeb('fetch', { root: tmp.dir, hooks: fetchWeb(), extraHosts: ['fetch.test'] });
  repo = join(tmp.dir, 'repo');
  const index = join(tmp.dir, 'index.jsonl');
  const args = ['--seed', web.url('fetch.test'), '--max-retries', '1', '--max-body-size', '1000', '--repository', repo, '--index', index, '--format', 'jsonl', '--log-level', '0'];
  run = await web.crawl(args, { cwd: tmp.dir });
  records = parseJsonl(await readFile(index, 'utf8'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const requestsOf = (path: string) => run.requests.filter((r) => r.path === path);
const recordOf = (path: string) => records.find((r) => r.url === web.url('fetch.test', path));

describe('fetching', () => {
  it('never fails the crawl for a page', () => {
    expect(run.code, run.stderr).toBe(0);
  });

  it('retries a 5xx, and indexes the page when a retry succeeds', () => {
    expect(requestsOf('/flaky.html').map((r) => r.status)).toEqual([503, 200]);
    expect(recordOf('/flaky.html')?.title).toBe('Flaky');
  });

  it('retries a 429 no sooner than its Retry-After', () => {
    const [first, second] = requestsOf('/busy.html');
    expect([first?.status, second?.status]).toEqual([429, 200]);
    expect(second!.start - first!.end).toBeGreaterThanOrEqual(985);
    expect(recordOf('/busy.html')?.title).toBe('Busy');
  });

  it('gives up after max-retries, counts the failure and writes no record; a 404 is not retried', async () => {
    expect(requestsOf('/broken.html').map((r) => r.status)).toEqual([500, 500]);
    expect(requestsOf('/gone.html').map((r) => r.status)).toEqual([404]);
    expect(recordOf('/broken.html')).toBeUndefined();
    expect(recordOf('/gone.html')).toBeUndefined();
    expect((await readStats(repo)).failures).toBe(2);
  });

  it.each([
    ['/gzip.html', 'Gzipped'],
    ['/deflate.html', 'Deflated'],
    ['/br.html', 'Brotli'],
  ])('decodes %s and stores the decoded document', async (path, title) => {
    const rec = recordOf(path);
    expect(rec?.title).toBe(title);
    expect(await readFile(resolve(repo, String(rec?.localPath)), 'utf8')).toBe(page(title));
  });

  it('cuts a body at max-body-size and marks the record truncated', async () => {
    const rec = recordOf('/big.html');
    expect(rec?.truncated).toBe(true);
    expect(rec?.title).toBe('Big');
    expect(rec?.contentLength).toBe(1000);
    expect((await readFile(resolve(repo, String(rec?.localPath)))).equals(Buffer.from(BIG).subarray(0, 1000))).toBe(true);
  });
});

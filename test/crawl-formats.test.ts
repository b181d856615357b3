import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ROOT } from '../src/demo/demo-web.js';
import { startWeb, writeDemoConf, type E2eWeb } from './support/e2e-web.js';
import { md5, parseCsv, parseEdges, parseJsonl, parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/** The scalar fields of SPEC §6, in its order (csv columns; jsonl keys before `links`). */
const FIELDS = ['md5', 'url', 'originalUrl', 'title', 'encoding', 'type', 'lastModified', 'serverDate', 'status', 'etag', 'localPath', 'contentLength', 'contentMd5', 'depth', 'fetchedAt', 'durationMs', 'duplicateOf'];
const SEED_FIELDS = ['md5', 'url', 'originalUrl', 'title', 'encoding', 'type', 'lastModified', 'serverDate'] as const;
/** Seed fields that always have a value; the others are `-` in the seed format where jsonl has null. */
const NEVER_NULL: ReadonlySet<string> = new Set(['md5', 'url', 'originalUrl', 'type']);

interface Run {
  readonly repo: string;
  /** REPOSITORY/index.txt, parsed. */
  readonly index: SeedRecord[];
  readonly indexText: string;
  /** The --index FILE, as written. */
  readonly out: string;
}

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
const runs = new Map<string, Run>();

/** The demo crawl once per format, all at once, each in its own folder. */
beforeAll(async () => {
  web = await startWeb('demo', { root: DEMO_ROOT });
  tmp = await tempDir();
  const conf = await writeDemoConf(tmp.dir, web.server.port);
  await Promise.all(
    ['seed', 'jsonl', 'csv', 'edges'].map(async (format) => {
      const repo = join(tmp.dir, format);
      const file = join(tmp.dir, `index.${format}`);
      const { code, stderr } = await web.crawl([conf, '--repository', repo, '--index', file, '--format', format, '--log-level', '0'], { cwd: tmp.dir });
      if (code !== 0) throw new Error(`crawl --format ${format} exited ${code}: ${stderr}`);
      const indexText = await readFile(join(repo, 'index.txt'), 'utf8');
      runs.set(format, { repo, index: parseSeedIndex(indexText), indexText, out: await readFile(file, 'utf8') });
    }),
  );
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const run = (format: string): Run => runs.get(format)!;
/** A seed-format field as the other formats carry it: `-` is null. */
const nullable = (v: string): string | null => (v === '-' ? null : v);

describe('--index FILE --format FORMAT', () => {
  it('seed: the file is index.txt, byte for byte', () => {
    const { out, indexText, index } = run('seed');
    expect(index).toHaveLength(41);
    expect(out).toBe(indexText);
  });

  it('jsonl: one object per document with the fields of SPEC §6 in order, agreeing with index.txt', () => {
    const { out, index } = run('jsonl');
    const objects = parseJsonl(out);
    expect(objects).toHaveLength(index.length);
    objects.forEach((obj, i) => {
      // Then SPEC §10's fields for HTML: the SimHash and its near-duplicate (nextFetch comes with recrawl-policy = adaptive).
      expect(Object.keys(obj).filter((k) => k !== 'truncated')).toEqual([...FIELDS, 'links', ...(obj.type === 'html' ? ['simhash', 'nearDuplicateOf'] : [])]);
      const rec = index[i]!;
      for (const f of SEED_FIELDS) expect(obj[f], `${rec.url} ${f}`).toBe(NEVER_NULL.has(f) ? rec[f] : nullable(rec[f]));
      expect(obj.links).toEqual(rec.links);
    });
  });

  it('jsonl: status, sizes, checksums, depth, times and duplicates describe the stored documents', async () => {
    const { out, repo } = run('jsonl');
    const objects = parseJsonl(out);
    const urls = new Set(objects.map((o) => o.url));
    for (const obj of objects) {
      expect(obj.status).toBe(200);
      expect(obj.md5).toBe(md5(String(obj.url)));
      const stored = await readFile(resolve(repo, String(obj.localPath)));
      expect(obj.contentLength).toBe(stored.length);
      expect(obj.contentMd5).toBe(md5(stored));
      expect(Number.isInteger(obj.depth) && (obj.depth as number) >= 0).toBe(true);
      expect(new Date(String(obj.fetchedAt)).toISOString()).toBe(obj.fetchedAt);
      expect(typeof obj.durationMs === 'number' && obj.durationMs >= 0).toBe(true);
      expect(obj.etag === null || /^(W\/)?"[^"]*"$/.test(String(obj.etag))).toBe(true);
      if (obj.duplicateOf !== null) expect(urls.has(obj.duplicateOf)).toBe(true);
      if (obj.type === 'html') expect(obj.simhash).toMatch(/^[0-9a-f]{16}$/);
      if (obj.nearDuplicateOf != null) expect(urls.has(obj.nearDuplicateOf)).toBe(true);
    }
    const home = web.url('www.tarantula.test', '/');
    const byUrl = (u: string) => objects.find((o) => o.url === u)!;
    expect(byUrl(web.url('www.tarantula.test', '/index.html')).duplicateOf).toBe(home);
    expect(byUrl(home).duplicateOf).toBeNull();
    expect(byUrl(home).depth).toBe(0);
    expect(byUrl(web.url('www.tarantula.test', '/about.html')).depth).toBe(1);
    expect(byUrl(web.url('www.tarantula.test', '/relocated.html')).depth).toBe(1);
    expect(byUrl(web.url('www.tarantula.test', '/noindex-child.html')).depth).toBe(2);
  });

  it('csv: a header row of the scalar fields, then one row per document agreeing with index.txt', () => {
    const { out, index } = run('csv');
    const [header, ...rows] = parseCsv(out);
    expect(header).toEqual(FIELDS);
    expect(rows).toHaveLength(index.length);
    rows.forEach((row, i) => {
      expect(row).toHaveLength(FIELDS.length);
      const rec = index[i]!;
      SEED_FIELDS.forEach((f, col) => expect(row[col], `${rec.url} ${f}`).toBe(rec[f] === '-' ? '' : rec[f]));
      expect(row[8]).toBe('200');
    });
    expect(rows.some((r) => r[3]!.includes(','))).toBe(true); // "Hello, world — The Tarantula blog" came through quoted
  });

  it('edges: FROM<TAB>TO for every link line of index.txt, in the same order', () => {
    const { out, index } = run('edges');
    const expected = index.flatMap((rec) => rec.links.map((l): [string, string] => [rec.url, l.url]));
    expect(expected.length).toBeGreaterThan(100);
    expect(parseEdges(out)).toEqual(expected);
  });
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NoCrawlError, readReportData } from './report-data.js';

let repo: string;
beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'tarantula-report-'));
});
afterEach(() => rm(repo, { recursive: true, force: true }));

const record = (url: string, depth: number, durationMs: number, fetchedAt: string) => ({
  md5: '0'.repeat(32), url, originalUrl: url, title: null, encoding: 'utf-8', type: 'html', lastModified: null, serverDate: null, status: 200, etag: null,
  localPath: 'x', contentLength: 1, contentMd5: null, depth, fetchedAt, durationMs, duplicateOf: null, links: [],
});

async function journal(lines: unknown[]): Promise<void> {
  await mkdir(join(repo, '.tarantula'), { recursive: true });
  await writeFile(join(repo, '.tarantula', 'journal.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

describe('readReportData', () => {
  it('counts each document of the journal once by depth, by duration range and over time', async () => {
    const t0 = Date.parse('2026-12-01T09:00:00.000Z');
    const docs = Array.from({ length: 30 }, (_, i) => record(`http://a.test/${i}`, i % 3, i < 20 ? 5 : 300, new Date(t0 + i * 100).toISOString()));
    await journal([['start', 'x'], ...docs.map((d) => ['d', d.url, d, 'text/html', true]), ['x', 'http://a.test/gone', 'failed'], 'torn li']);
    await writeFile(join(repo, 'stats.json'), JSON.stringify({ documents: 30 }));
    const data = await readReportData(repo);
    expect(data.depth).toEqual([['0', 10], ['1', 10], ['2', 10]]);
    expect(data.durations).toEqual([['<10 ms', 20], ['<25 ms', 0], ['<50 ms', 0], ['<100 ms', 0], ['<250 ms', 0], ['<500 ms', 10]]);
    // 30 pages: 6 intervals of at least 5 pages over the 2.9 s from the first to the last
    expect(data.rate).toHaveLength(6);
    expect(data.spanSeconds).toBeCloseTo(2.9);
    expect(data.rate.reduce((n, [from, to, rate]) => n + rate * (to - from), 0)).toBeCloseTo(30);
    expect(data.pagerank).toEqual([]);
  });

  it('says a folder holds no crawl', async () => {
    await expect(readReportData(repo)).rejects.toThrow(new NoCrawlError(`${repo} holds no crawl (no stats.json, no .tarantula/journal.jsonl); crawl into it first: tarantula crawl --repository ${repo}`));
  });

  it('says a crawl was killed before it wrote stats.json', async () => {
    await journal([['start', 'x']]);
    await expect(readReportData(repo)).rejects.toThrow(/has a crawl journal but no stats\.json: the crawl was killed before it ended/);
  });

  it('says stats.json that is not JSON is not the stats of a crawl', async () => {
    await journal([['start', 'x']]);
    await writeFile(join(repo, 'stats.json'), '{"documents": 3');
    await expect(readReportData(repo)).rejects.toThrow(new RegExp(`^${join(repo, 'stats.json')} is not the stats of a crawl: `));
    await writeFile(join(repo, 'stats.json'), 'null');
    await expect(readReportData(repo)).rejects.toThrow(`${join(repo, 'stats.json')} is not the stats of a crawl: not a JSON object`);
  });
});

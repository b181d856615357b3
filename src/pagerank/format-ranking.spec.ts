import { describe, expect, it } from 'vitest';
import { formatRanking } from './format-ranking.js';
import type { RankedPage } from './rank-pages.js';

const pages: RankedPage[] = [
  { rank: 1, url: 'http://www.csd.uoc.gr/', outDegree: 42, inDegree: 1311, score: 0.0553333123 },
  { rank: 2, url: 'http://h/a', outDegree: 7, inDegree: 3, score: 1 / 3 },
  { rank: 10, url: 'http://h/"q"', outDegree: 0, inDegree: 12, score: 1.5e-7 },
];
const text = (format: 'table' | 'tsv' | 'jsonl', rows = pages): string => [...formatRanking(rows, format)].join('');

describe('formatRanking', () => {
  it('table: a header, then aligned columns, numbers right-aligned, scores to 6 digits', () => {
    expect(text('table')).toBe(
      'rank  url                     out-degree  in-degree  pagerank\n' +
      '   1  http://www.csd.uoc.gr/          42       1311  0.0553333\n' +
      '   2  http://h/a                       7          3  0.333333\n' +
      '  10  http://h/"q"                     0         12  1.50000e-7\n',
    );
  });

  it('table: widens a column for a long URL and prints only the header for no pages', () => {
    const long = 'http://h/' + 'x'.repeat(60);
    const lines = text('table', [{ ...pages[0]!, url: long }]).split('\n');
    expect(lines[0]!.indexOf('out-degree')).toBe(lines[1]!.indexOf(long) + long.length + 2);
    expect(text('table', [])).toBe('rank  url  out-degree  in-degree  pagerank\n');
  });

  it('tsv: a header row, then one row per page with the full score', () => {
    const rows = text('tsv').split('\n');
    expect(rows[0]).toBe('rank\turl\toutDegree\tinDegree\tscore');
    expect(rows[2]).toBe(`2\thttp://h/a\t7\t3\t${1 / 3}`);
    expect(rows.slice(1, -1).map((r) => r.split('\t').length)).toEqual([5, 5, 5]);
  });

  it('jsonl: one object per line that parses back to the page', () => {
    const lines = text('jsonl').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as RankedPage)).toEqual(pages);
    expect(Object.keys(JSON.parse(lines[0]!) as object)).toEqual(['rank', 'url', 'outDegree', 'inDegree', 'score']);
    expect(text('jsonl', [])).toBe('');
  });

  it('shows no control character of a URL raw: replaced in the table and tsv, escaped in jsonl', () => {
    const hostile = [{ ...pages[0]!, url: 'http://h/\x1b[2J\u009b\u202e' }];
    for (const format of ['table', 'tsv', 'jsonl'] as const) expect(text(format, hostile)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    expect(text('tsv', hostile)).toContain('\thttp://h/?[2J??\t');
    expect((JSON.parse(text('jsonl', hostile)) as RankedPage).url).toBe(hostile[0]!.url);
  });
});

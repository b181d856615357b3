import { escapeControls, oneSafeLine } from '../output/fields.js';
import type { RankedPage } from './rank-pages.js';

/** How `tarantula pagerank` prints its ranking. */
export type RankingFormat = 'table' | 'tsv' | 'jsonl';

const TABLE_HEADER = ['rank', 'url', 'out-degree', 'in-degree', 'pagerank'] as const;
const TSV_HEADER = 'rank\turl\toutDegree\tinDegree\tscore\n';

/**
 * The ranking as lines of text, each with its `\n`:
 * - `table`: a header, then aligned columns (numbers right-aligned, the score last, to 6 significant
 *   digits, so that no line ends in padding);
 * - `tsv`: a header row (the jsonl field names), then one row per page, scores in full precision;
 * - `jsonl`: one `{rank, url, outDegree, inDegree, score}` object per line, no header.
 *
 * Lines are produced one at a time so that printing every page of a large graph never builds the
 * whole output as one string.
 *
 * @example
 * [...formatRanking([{ rank: 1, url: 'http://h/', outDegree: 2, inDegree: 1, score: 0.5 }], 'tsv')]
 * //=> ['rank\turl\toutDegree\tinDegree\tscore\n', '1\thttp://h/\t2\t1\t0.5\n']
 */
export function* formatRanking(pages: readonly RankedPage[], format: RankingFormat): Generator<string, void, undefined> {
  if (format === 'jsonl') {
    for (const p of pages) yield `{"rank":${p.rank},"url":${escapeControls(JSON.stringify(p.url))},"outDegree":${p.outDegree},"inDegree":${p.inDegree},"score":${p.score}}\n`;
  } else if (format === 'tsv') {
    yield TSV_HEADER;
    for (const p of pages) yield `${p.rank}\t${oneSafeLine(p.url)}\t${p.outDegree}\t${p.inDegree}\t${p.score}\n`;
  } else {
    yield* formatTable(pages);
  }
}

function* formatTable(pages: readonly RankedPage[]): Generator<string, void, undefined> {
  const widths: number[] = TABLE_HEADER.map((h) => h.length);
  const widen = (col: number, text: string): void => {
    if (text.length > (widths[col] as number)) widths[col] = text.length;
  };
  for (const p of pages) {
    widen(0, String(p.rank));
    widen(1, oneSafeLine(p.url));
    widen(2, String(p.outDegree));
    widen(3, String(p.inDegree));
  }
  const [wRank, wUrl, wOut, wIn] = widths as [number, number, number, number, number];
  const row = (rank: string, url: string, out: string, inDeg: string, score: string): string =>
    `${rank.padStart(wRank)}  ${url.padEnd(wUrl)}  ${out.padStart(wOut)}  ${inDeg.padStart(wIn)}  ${score}\n`;
  const [hRank, hUrl, hOut, hIn, hScore] = TABLE_HEADER;
  yield row(hRank, hUrl, hOut, hIn, hScore);
  for (const p of pages) yield row(String(p.rank), oneSafeLine(p.url), String(p.outDegree), String(p.inDegree), p.score.toPrecision(6));
}

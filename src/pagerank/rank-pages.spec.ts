import { describe, expect, it } from 'vitest';
import { LinkGraphBuilder } from './link-graph.js';
import { rankPages } from './rank-pages.js';

const b = new LinkGraphBuilder();
b.addPage('http://z/', [{ url: 'http://hub/' }]);
b.addPage('http://a/', [{ url: 'http://hub/' }, { url: 'http://hub/' }]);
b.addPage('http://hub/', [{ url: 'http://a/' }, { url: 'http://z/' }, { url: 'http://leaf/' }]);
const graph = b.build();
const id = (u: string): number => graph.urls.indexOf(u);
const scores = new Float64Array(graph.urls.length);
scores[id('http://hub/')] = 0.4;
scores[id('http://z/')] = 0.2;
scores[id('http://a/')] = 0.2;
scores[id('http://leaf/')] = 0.2;

describe('rankPages', () => {
  it('lists pages by score, highest first, with their degrees', () => {
    expect(rankPages(graph, scores, 2)).toEqual([
      { rank: 1, url: 'http://hub/', outDegree: 3, inDegree: 2, score: 0.4 },
      { rank: 2, url: 'http://a/', outDegree: 1, inDegree: 1, score: 0.2 },
    ]);
  });

  it('orders equal scores by URL, whatever order the pages were read in', () => {
    expect(rankPages(graph, scores, 0).map((p) => p.url)).toEqual(['http://hub/', 'http://a/', 'http://leaf/', 'http://z/']);
  });

  it('gives every page for top 0 and for a top beyond the page count', () => {
    expect(rankPages(graph, scores, 0)).toHaveLength(4);
    expect(rankPages(graph, scores, 99).map((p) => p.rank)).toEqual([1, 2, 3, 4]);
  });

  it('picks the same top k as a full sort, ties included, for every k', () => {
    const many = new LinkGraphBuilder();
    for (let i = 0; i < 60; i++) many.addPage(`http://p/${(i * 37) % 60}`, [{ url: `http://p/${(i * 11) % 7}` }]);
    const g = many.build();
    const s = Float64Array.from(g.urls, (_, i) => ((i * 13) % 5) / 10); // five distinct scores, many ties
    const all = rankPages(g, s, 0);
    expect(all.map((p) => p.score)).toEqual([...s].sort((x, y) => y - x));
    for (let k = 1; k <= 60; k++) expect(rankPages(g, s, k)).toEqual(all.slice(0, k));
  });

  it('gives nothing for an empty graph', () => {
    expect(rankPages(new LinkGraphBuilder().build(), new Float64Array(0), 10)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { type LinkGraph, LinkGraphBuilder, outDegree } from './link-graph.js';

const link = (url: string) => ({ url });
const rows = (g: LinkGraph): Record<string, string[]> =>
  Object.fromEntries(g.urls.map((u, i) => [u, [...g.targets.subarray(g.offsets[i], g.offsets[i + 1])].map((t) => g.urls[t] as string)]));

describe('LinkGraphBuilder', () => {
  it('interns every URL once, in order of first appearance, link targets included', () => {
    const b = new LinkGraphBuilder();
    b.addPage('http://h/', [link('http://h/a'), link('http://x/')]);
    b.addPage('http://h/a', [link('http://h/')]);
    const g = b.build();
    expect(g.urls).toEqual(['http://h/', 'http://h/a', 'http://x/']);
    expect(rows(g)).toEqual({ 'http://h/': ['http://h/a', 'http://x/'], 'http://h/a': ['http://h/'], 'http://x/': [] });
    expect([...g.offsets]).toEqual([0, 2, 3, 3]);
  });

  it('drops self-links and counts a repeated link of one page once, keeping link order', () => {
    const b = new LinkGraphBuilder();
    b.addPage('a', [link('b'), link('a'), link('c'), link('b'), link('b')]);
    b.addPage('c', [link('c')]);
    expect(b.linkCount).toBe(4);
    const g = b.build();
    expect(rows(g)).toEqual({ a: ['b', 'c'], b: [], c: [] });
    expect([outDegree(g, 0), outDegree(g, 1), outDegree(g, 2)]).toEqual([2, 0, 0]);
    expect([...g.inDegree]).toEqual([0, 1, 1]);
  });

  it('merges the links of a page added twice, non-contiguously, without double counting', () => {
    const b = new LinkGraphBuilder();
    b.addPage('a', [link('b')]);
    b.addPage('b', [link('a')]);
    b.addPage('a', [link('b'), link('c')]);
    const g = b.build();
    expect(rows(g)).toEqual({ a: ['b', 'c'], b: ['a'], c: [] });
    expect([...g.inDegree]).toEqual([1, 1, 1]);
    expect(g.targets.length).toBe(3);
  });

  it('counts in-degree as distinct linking pages', () => {
    const b = new LinkGraphBuilder();
    for (const from of ['p', 'q', 'r']) b.addPage(from, [link('hub'), link('hub')]);
    const g = b.build();
    expect(g.inDegree[g.urls.indexOf('hub')]).toBe(3);
  });

  it('grows past its initial capacity and stays usable after build', () => {
    const b = new LinkGraphBuilder();
    const many = Array.from({ length: 5000 }, (_, i) => link(`t${i}`));
    b.addPage('hub', many);
    const first = b.build();
    expect(outDegree(first, 0)).toBe(5000);
    expect(first.targets[4999]).toBe(5000);
    b.addPage('t0', [link('hub')]);
    const second = b.build();
    expect(second.offsets[second.urls.length]).toBe(5001);
    expect(first.urls.length).toBe(5001);
    expect(b.nodeCount).toBe(5001);
  });

  it('builds an empty graph from nothing', () => {
    const g = new LinkGraphBuilder().build();
    expect(g.urls).toEqual([]);
    expect([...g.offsets]).toEqual([0]);
    expect(g.targets.length).toBe(0);
  });
});

import { type LinkGraph, outDegree } from './link-graph.js';

/** One line of the ranking, as the Heritrix report's table of the top pages has it. */
export interface RankedPage {
  /** 1 for the highest score. */
  readonly rank: number;
  readonly url: string;
  readonly outDegree: number;
  readonly inDegree: number;
  readonly score: number;
}

/**
 * The `top` pages by score, highest first (`top` 0: all of them). Equal scores are ordered by URL,
 * so the output does not depend on the order pages were read in. A top `k` of `n` pages costs
 * O(n log k) (a heap of the best `k` so far), not a sort of every page.
 *
 * @example
 * rankPages(graph, pagerank(graph).scores, 2)
 * //=> [{ rank: 1, url: 'http://h/', outDegree: 2, inDegree: 3, score: 0.38 }, { rank: 2, … }]
 */
export function rankPages(graph: LinkGraph, scores: Float64Array, top: number): RankedPage[] {
  const { urls } = graph;
  /** Negative when page `a` ranks before page `b`. */
  const compare = (a: number, b: number): number => {
    const d = (scores[b] as number) - (scores[a] as number);
    if (d !== 0) return d;
    const ua = urls[a] as string;
    const ub = urls[b] as string;
    return ua < ub ? -1 : ua > ub ? 1 : 0;
  };
  const n = urls.length;
  const order = top > 0 && top < n ? bestOf(n, top, compare) : Uint32Array.from({ length: n }, (_, i) => i);
  order.sort(compare);
  const pages: RankedPage[] = new Array(order.length);
  for (let r = 0; r < order.length; r++) {
    const id = order[r] as number;
    pages[r] = { rank: r + 1, url: urls[id] as string, outDegree: outDegree(graph, id), inDegree: graph.inDegree[id] as number, score: scores[id] as number };
  }
  return pages;
}

/** The `k` best of ids `0 … n-1`, unordered: a binary heap with the worst of them at the root. */
function bestOf(n: number, k: number, compare: (a: number, b: number) => number): Uint32Array {
  const heap = new Uint32Array(k);
  const worse = (i: number, j: number): boolean => compare(heap[i] as number, heap[j] as number) > 0;
  const siftDown = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < k && worse(l, w)) w = l;
      if (r < k && worse(r, w)) w = r;
      if (w === i) return;
      const t = heap[i] as number;
      heap[i] = heap[w] as number;
      heap[w] = t;
      i = w;
    }
  };
  for (let i = 0; i < k; i++) heap[i] = i;
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(i);
  for (let id = k; id < n; id++) {
    if (compare(id, heap[0] as number) >= 0) continue;
    heap[0] = id;
    siftDown(0);
  }
  return heap;
}

import type { LinkGraph } from './link-graph.js';

/** Options of {@link pagerank}. */
export interface PagerankOptions {
  /** damping (number). Default: `0.85`. Probability that the surfer follows a link rather than jumping to a random page; in [0, 1). */
  readonly damping?: number;
  /** tolerance (number). Default: `1e-10`. Iteration stops once the scores moved less than this in total (L1 norm) in one step. */
  readonly tolerance?: number;
  /** maxIterations (number). Default: `1000`. Iteration stops here even if not converged (`converged: false`). */
  readonly maxIterations?: number;
}

/** Scores by node id (summing to 1), and how the iteration ended. */
export interface PagerankResult {
  readonly scores: Float64Array;
  readonly iterations: number;
  /** L1 change of the last step. */
  readonly delta: number;
  readonly converged: boolean;
}

/**
 * PageRank by power iteration (Brin & Page; Manning et al., IIR §21.2): each step every page
 * shares `damping` times its score equally among its out-links, the score of pages without
 * out-links (dangling) is spread over all pages, and `1 - damping` is spread uniformly as the
 * random jump. The scores stay a probability distribution, so they sum to 1 at every step. With
 * `damping < 1` the error shrinks by that factor each step; at the default tolerance the scores
 * are within about `damping / (1 - damping) × 1e-10` of the fixed point.
 *
 * @example
 * // a → b → c → a
 * pagerank(graph).scores //=> Float64Array [0.3333…, 0.3333…, 0.3333…]
 * @see LinkGraphBuilder
 */
export function pagerank(graph: Pick<LinkGraph, 'offsets' | 'targets'>, opts: PagerankOptions = {}): PagerankResult {
  const damping = opts.damping ?? 0.85;
  const tolerance = opts.tolerance ?? 1e-10;
  const maxIterations = opts.maxIterations ?? 1000;
  if (!(damping >= 0 && damping < 1)) throw new RangeError(`damping must be in [0, 1), got ${damping}`);
  const { offsets, targets } = graph;
  const n = offsets.length - 1;
  let rank = new Float64Array(n).fill(1 / n);
  if (n === 0) return { scores: rank, iterations: 0, delta: 0, converged: true };
  let next = new Float64Array(n);
  let delta = Infinity;
  let iterations = 0;
  while (iterations < maxIterations && !(delta < tolerance)) {
    let dangling = 0;
    let start = offsets[0] as number;
    for (let u = 0; u < n; u++) {
      const end = offsets[u + 1] as number;
      if (end === start) dangling += rank[u] as number;
      else {
        const share = ((rank[u] as number) * damping) / (end - start);
        for (let e = start; e < end; e++) {
          const v = targets[e] as number;
          next[v] = (next[v] as number) + share;
        }
      }
      start = end;
    }
    const base = (1 - damping + damping * dangling) / n;
    delta = 0;
    for (let v = 0; v < n; v++) {
      const score = (next[v] as number) + base;
      delta += Math.abs(score - (rank[v] as number));
      next[v] = score;
      rank[v] = 0; // zeroed here rather than in a pass of its own: it is the next step's accumulator
    }
    [rank, next] = [next, rank];
    iterations++;
  }
  return { scores: rank, iterations, delta, converged: delta < tolerance };
}

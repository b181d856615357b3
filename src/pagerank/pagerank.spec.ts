import { describe, expect, it } from 'vitest';
import { type LinkGraph, LinkGraphBuilder } from './link-graph.js';
import { pagerank } from './pagerank.js';

/** A graph from `FROM>TO` pairs; `pages` adds nodes without links. */
function graphOf(edges: readonly string[], pages: readonly string[] = []): { g: LinkGraph; id: (u: string) => number } {
  const b = new LinkGraphBuilder();
  for (const p of pages) b.addPage(p, []);
  for (const e of edges) {
    const [from, to] = e.split('>') as [string, string];
    b.addPage(from, [{ url: to }]);
  }
  const g = b.build();
  return { g, id: (u) => g.urls.indexOf(u) };
}
const sum = (a: Float64Array): number => a.reduce((s, x) => s + x, 0);

/** The fixed point solved directly: (I - Gᵀ) r = 0 with one row replaced by Σr = 1, Gaussian elimination. */
function solveExactly(g: LinkGraph, d: number): number[] {
  const n = g.urls.length;
  const a = Array.from({ length: n }, (_, i) => Array.from({ length: n + 1 }, (_, j) => (i === j ? 1 : 0)));
  for (let u = 0; u < n; u++) {
    const start = g.offsets[u] as number;
    const deg = (g.offsets[u + 1] as number) - start;
    for (let v = 0; v < n; v++) (a[v] as number[])[u]! -= (1 - d) / n + (deg === 0 ? d / n : 0);
    for (let e = start; e < start + deg; e++) (a[g.targets[e] as number] as number[])[u]! -= d / deg;
  }
  a[n - 1] = Array.from({ length: n + 1 }, () => 1);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    [a[c], a[p]] = [a[p]!, a[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= n; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

describe('pagerank', () => {
  it('gives each page of a 3-cycle 1/3', () => {
    const { g } = graphOf(['a>b', 'b>c', 'c>a']);
    const { scores } = pagerank(g);
    for (const s of scores) expect(s).toBeCloseTo(1 / 3, 6);
  });

  it('spreads a dangling page over all pages: a→b gives a = 0.5 / (1 + d/2)', () => {
    const { g, id } = graphOf(['a>b']);
    const { scores } = pagerank(g);
    // a = (1-d)/2 + d·b/2 and a + b = 1
    expect(scores[id('a')]).toBeCloseTo(0.5 / 1.425, 6);
    expect(scores[id('b')]).toBeCloseTo(1 - 0.5 / 1.425, 6);
  });

  it('ranks the dangling hub of a star of three leaves first', () => {
    const { g, id } = graphOf(['l1>hub', 'l2>hub', 'l3>hub']);
    const { scores } = pagerank(g, { damping: 0.85 });
    // hub = (1-d)/4 + d(3·leaf + hub/4), leaf = (1-d)/4 + d·hub/4, hub + 3·leaf = 1
    const hub = 0.8875 / 1.6375;
    expect(scores[id('hub')]).toBeCloseTo(hub, 6);
    for (const leaf of ['l1', 'l2', 'l3']) expect(scores[id(leaf)]).toBeCloseTo((1 - hub) / 3, 6);
  });

  it('ignores self-links and counts duplicate links of one page once', () => {
    const { g, id } = graphOf(['a>b', 'a>b', 'a>b', 'a>a', 'a>c', 'b>a', 'c>a', 'c>c']);
    const { scores } = pagerank(g);
    // as a→b, a→c, b→a, c→a: a = (1-d)/3 + d(b + c), b = c = (1 - a)/2
    const a = (0.05 + 0.85) / 1.85;
    expect(scores[id('a')]).toBeCloseTo(a, 6);
    expect(scores[id('b')]).toBeCloseTo((1 - a) / 2, 6);
    expect(scores[id('c')]).toBeCloseTo((1 - a) / 2, 6);
  });

  it.each([0, 0.5, 0.85, 0.99])('matches the exact solution on a random graph with dangling pages (damping %s)', (d) => {
    let seed = 7;
    const rand = (k: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % k);
    const edges = Array.from({ length: 90 }, () => `p${rand(30)}>p${rand(25)}`);
    const { g } = graphOf(edges, Array.from({ length: 30 }, (_, i) => `p${i}`));
    const result = pagerank(g, { damping: d, maxIterations: 10_000 });
    const exact = solveExactly(g, d);
    expect(result.converged).toBe(true);
    result.scores.forEach((s, i) => expect(s).toBeCloseTo(exact[i]!, 8));
    expect(sum(result.scores)).toBeCloseTo(1, 12);
  });

  it('gives uniform scores with damping 0 and nothing for an empty graph', () => {
    const { g } = graphOf(['a>b', 'a>c', 'b>c']);
    for (const s of pagerank(g, { damping: 0 }).scores) expect(s).toBeCloseTo(1 / 3, 12);
    expect(pagerank(new LinkGraphBuilder().build())).toEqual({ scores: new Float64Array(0), iterations: 0, delta: 0, converged: true });
  });

  it('stops at maxIterations without claiming convergence', () => {
    const { g } = graphOf(['a>b', 'b>c', 'c>a', 'c>b']);
    const capped = pagerank(g, { maxIterations: 3 });
    expect(capped).toMatchObject({ iterations: 3, converged: false });
    expect(capped.delta).toBeGreaterThan(1e-10);
    expect(sum(capped.scores)).toBeCloseTo(1, 12);
  });

  it('iterates until one step moves the scores less than the tolerance', () => {
    const { g } = graphOf(['a>b', 'b>c', 'c>a', 'c>b']);
    const loose = pagerank(g, { tolerance: 1e-3 });
    const tight = pagerank(g, { tolerance: 1e-12 });
    expect(loose.converged && tight.converged).toBe(true);
    expect(loose.delta).toBeLessThan(1e-3);
    expect(tight.delta).toBeLessThan(1e-12);
    expect(tight.iterations).toBeGreaterThan(loose.iterations);
    const again = pagerank(g, { tolerance: 1e-12, maxIterations: tight.iterations - 1 });
    expect(again.converged).toBe(false);
  });

  it('stops after one step when the start is already the fixed point', () => {
    expect(pagerank(graphOf(['a>b', 'b>a']).g)).toMatchObject({ iterations: 1, delta: 0, converged: true });
  });

  it.each([-0.1, 1, 1.5, Number.NaN])('rejects damping %s', (d) => {
    expect(() => pagerank(graphOf(['a>b']).g, { damping: d })).toThrow(RangeError);
  });
});

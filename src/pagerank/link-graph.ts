/**
 * A link graph in compressed sparse row (CSR) form: node `i` is `urls[i]`, and its distinct
 * out-links are `targets[offsets[i]]` up to (excluding) `targets[offsets[i + 1]]`. Self-links are
 * absent and each target appears once per source, so the out-degree is `offsets[i + 1] - offsets[i]`.
 * Four bytes per edge and about twelve per node besides the URL strings.
 */
export interface LinkGraph {
  readonly urls: readonly string[];
  /** `urls.length + 1` entries; the last is the number of edges. */
  readonly offsets: Uint32Array;
  readonly targets: Uint32Array;
  /** Distinct pages linking to each node (self-links not counted). */
  readonly inDegree: Uint32Array;
}

/** The out-degree of node `i`: its distinct links to other pages. */
export const outDegree = (graph: Pick<LinkGraph, 'offsets'>, i: number): number =>
  (graph.offsets[i + 1] as number) - (graph.offsets[i] as number);

/**
 * Collects pages and their links into a {@link LinkGraph}: each URL is interned to an integer id
 * the first time it appears, as a page or as a link target, and each edge costs 8 bytes in two
 * growable typed arrays until {@link build} packs them. A page may be added more than once (an
 * edges file where one FROM comes back later, or a repeated record): its links are merged.
 *
 * @example
 * const builder = new LinkGraphBuilder();
 * builder.addPage('http://h/', [{ url: 'http://h/a' }, { url: 'http://h/a' }, { url: 'http://h/' }]);
 * const graph = builder.build();
 * graph.urls //=> ['http://h/', 'http://h/a']
 * outDegree(graph, 0) //=> 1 (duplicate and self-link dropped)
 */
export class LinkGraphBuilder {
  private readonly ids = new Map<string, number>();
  private readonly urls: string[] = [];
  private from = new Uint32Array(1024);
  private to = new Uint32Array(1024);
  private edges = 0;

  /** Nodes interned so far. */
  get nodeCount(): number {
    return this.urls.length;
  }

  /** Links added so far, self-links excluded but duplicates included. */
  get linkCount(): number {
    return this.edges;
  }

  /** Adds a page (a node even without links) and an edge to each link target other than itself. */
  addPage(url: string, links: Iterable<{ readonly url: string }>): void {
    const source = this.intern(url);
    for (const link of links) {
      const target = this.intern(link.url);
      if (target === source) continue;
      if (this.edges === this.from.length) this.grow();
      this.from[this.edges] = source;
      this.to[this.edges] = target;
      this.edges++;
    }
  }

  /**
   * Packs the edges by source (a counting sort, which keeps each page's links in their order) and
   * drops repeated links of one page. The builder stays usable; later pages give a new graph.
   */
  build(): LinkGraph {
    const n = this.urls.length;
    const m = this.edges;
    const offsets = new Uint32Array(n + 1);
    const from = this.from;
    for (let e = 0; e < m; e++) {
      const row = (from[e] as number) + 1;
      offsets[row] = (offsets[row] as number) + 1;
    }
    for (let i = 0; i < n; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
    const cursor = offsets.slice(0, n);
    const targets = new Uint32Array(m);
    for (let e = 0; e < m; e++) {
      const row = from[e] as number;
      const at = cursor[row] as number;
      targets[at] = this.to[e] as number;
      cursor[row] = at + 1;
    }

    // Rows are contiguous now, so "already linked from this row" is one stamp per target: O(m), no sort.
    const lastSource = new Int32Array(n).fill(-1);
    const inDegree = new Uint32Array(n);
    let kept = 0;
    let start = 0;
    for (let u = 0; u < n; u++) {
      const end = offsets[u + 1] as number;
      offsets[u] = kept;
      for (let e = start; e < end; e++) {
        const v = targets[e] as number;
        if (lastSource[v] === u) continue;
        lastSource[v] = u;
        targets[kept++] = v;
        inDegree[v] = (inDegree[v] as number) + 1;
      }
      start = end;
    }
    offsets[n] = kept;
    return { urls: this.urls.slice(), offsets, targets: kept === m ? targets : targets.slice(0, kept), inDegree };
  }

  private intern(url: string): number {
    let id = this.ids.get(url);
    if (id === undefined) {
      id = this.urls.length;
      // A URL read from a file is often a V8 sliced string that keeps its whole 64 KiB read chunk
      // alive; concatenating flattens it into a string of its own (peak RSS 380 → 150 MiB at 1M edges).
      const own = (' ' + url).slice(1);
      this.ids.set(own, id);
      this.urls.push(own);
    }
    return id;
  }

  private grow(): void {
    const from = new Uint32Array(this.from.length * 2);
    const to = new Uint32Array(this.to.length * 2);
    from.set(this.from);
    to.set(this.to);
    this.from = from;
    this.to = to;
  }
}

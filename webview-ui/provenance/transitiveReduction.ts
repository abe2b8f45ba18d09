/**
 * Edges kept for the layout: the transitive reduction of the DAG. A provenance graph
 * has hub artifacts (a structure, a pseudopotential set) read by hundreds of calls;
 * laid out as they are, each long edge becomes a chain of dummy nodes through every
 * layer it spans, and a layered layout of a 5,000-node run takes minutes instead of
 * seconds. An edge u→v implied by another path u→…→v adds no layering constraint, so
 * it is left out of the layout and drawn on demand (when u or v is selected).
 */
export interface ReducedEdges {
  kept: number[];
  omitted: number[];
}

/** `edges` index into `nodeIds`; returns indices into `edges`. Cycles are kept as they are. */
export function transitiveReduction(nodeIds: readonly string[], edges: readonly { from: string; to: string }[]): ReducedEdges {
  const index = new Map(nodeIds.map((id, i) => [id, i]));
  const from = new Int32Array(edges.length);
  const to = new Int32Array(edges.length);
  edges.forEach((e, k) => {
    from[k] = index.get(e.from) ?? -1;
    to[k] = index.get(e.to) ?? -1;
  });
  return transitiveReductionIndexed(nodeIds.length, from, to);
}

/** The same over node indices (edge k: from[k] → to[k]; -1 for an end that is not a node), as the layout worker holds them. */
export function transitiveReductionIndexed(n: number, from: Int32Array, to: Int32Array): ReducedEdges {
  const succ: { to: number; edge: number }[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  for (let k = 0; k < from.length; k++) {
    const a = from[k]!;
    const b = to[k]!;
    if (a < 0 || b < 0) continue;
    succ[a]!.push({ to: b, edge: k });
    indeg[b]!++;
  }
  // Kahn's order; nodes left over sit on a cycle and keep all their edges.
  const order: number[] = [];
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) queue.push(i);
  while (queue.length) {
    const u = queue.pop()!;
    order.push(u);
    for (const s of succ[u]!) if (--indeg[s.to] === 0) queue.push(s.to);
  }
  const position = new Int32Array(n).fill(-1);
  order.forEach((u, i) => (position[u] = i));
  const words = Math.ceil(n / 32);
  const reach: Uint32Array[] = new Array(n);
  const kept: number[] = [];
  const omitted: number[] = [];
  const onCycle = new Set<number>();
  for (let i = 0; i < n; i++) if (position[i] === -1) onCycle.add(i);
  for (let i = order.length - 1; i >= 0; i--) {
    const u = order[i]!;
    const r = new Uint32Array(words);
    // Nearest successors first: anything reachable through them makes a later direct edge redundant.
    const out = [...succ[u]!].sort((x, y) => position[x.to]! - position[y.to]!);
    for (const s of out) {
      const v = s.to;
      if (onCycle.has(v)) {
        kept.push(s.edge);
        continue;
      }
      if (r[v >>> 5]! & (1 << (v & 31))) {
        omitted.push(s.edge);
        continue;
      }
      kept.push(s.edge);
      r[v >>> 5]! |= 1 << (v & 31);
      const rv = reach[v]!;
      for (let w = 0; w < words; w++) r[w]! |= rv[w]!;
    }
    reach[u] = r;
  }
  for (const u of onCycle) for (const s of succ[u]!) kept.push(s.edge);
  return { kept, omitted };
}

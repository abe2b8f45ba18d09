/**
 * The provisional layout the graph is first drawn with, in tens of milliseconds for thousands
 * of nodes, while ELK computes the refined one (seconds; see layout.ts). Same layered form as
 * ELK's, so the picture does not change character when the refined layout replaces it:
 * layers by the longest path from the sources over the transitively reduced edges, order in a
 * layer by the barycentre of the neighbours (passes down, up, down), each node placed at
 * the height of its predecessors where there is room. Edges are straight segments from the
 * right side of a node to the left side of its successor.
 *
 * No library does this fast enough: ELK with crossing minimisation off still takes ~2.5 s for
 * 5,000 nodes on this machine, dagre ~110 s (docs/notes/ui.md). Positions in CSS pixels.
 */

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 34;
const LAYER_GAP = 48;
const NODE_GAP = 14;

export interface PackedLayout {
  /** Top-left corner of node i. */
  x: Float64Array;
  y: Float64Array;
  /** For each routed edge: its index into the graph's edges, and its points [offsets[k], offsets[k+1]) in `points` as x,y pairs. */
  edge: Int32Array;
  offsets: Int32Array;
  points: Float64Array;
  width: number;
  height: number;
}

/** `kept`: indices of the edges (from[k] → to[k], node indices) left after the transitive reduction. */
export function quickLayout(n: number, from: Int32Array, to: Int32Array, kept: readonly number[]): PackedLayout {
  const succ: number[][] = Array.from({ length: n }, () => []);
  const pred: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  for (const k of kept) {
    const a = from[k]!,
      b = to[k]!;
    if (a === b) continue;
    succ[a]!.push(b);
    pred[b]!.push(a);
    indeg[b]!++;
  }
  // Longest path from the sources; nodes left on a cycle (a damaged log) go after the rest.
  const layer = new Int32Array(n);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) queue.push(i);
  let seen = 0;
  let maxLayer = 0;
  for (let h = 0; h < queue.length; h++) {
    const u = queue[h]!;
    seen++;
    for (const v of succ[u]!) {
      if (layer[u]! + 1 > layer[v]!) layer[v] = layer[u]! + 1;
      if (--indeg[v] === 0) queue.push(v);
    }
    if (layer[u]! > maxLayer) maxLayer = layer[u]!;
  }
  if (seen < n) {
    for (let i = 0; i < n; i++) if (indeg[i]! > 0) layer[i] = maxLayer + 1;
    maxLayer++;
  }
  const layers: number[][] = Array.from({ length: maxLayer + 1 }, () => []);
  for (let i = 0; i < n; i++) layers[layer[i]!]!.push(i); // creation order to start with
  const pos = new Float64Array(n);
  const number = () => layers.forEach((l) => l.forEach((v, i) => (pos[v] = i / Math.max(1, l.length - 1))));
  const sortBy = (l: number[], neighbours: number[][]) => {
    const key = new Map<number, number>();
    for (const v of l) {
      const ns = neighbours[v]!;
      key.set(v, ns.length ? ns.reduce((s, u) => s + pos[u]!, 0) / ns.length : pos[v]!);
    }
    l.sort((a, b) => key.get(a)! - key.get(b)! || a - b);
    l.forEach((v, i) => (pos[v] = i / Math.max(1, l.length - 1)));
  };
  number();
  // down, up, down: the last pass orders each layer by its predecessors, so a call's outputs stay together
  for (let L = 1; L <= maxLayer; L++) sortBy(layers[L]!, pred);
  for (let L = maxLayer - 1; L >= 0; L--) sortBy(layers[L]!, succ);
  for (let L = 1; L <= maxLayer; L++) sortBy(layers[L]!, pred);

  // Heights: layers stacked in their order, then a few sweeps that move each node to the mean
  // height of its neighbours in the layer just swept (predecessors going right, successors
  // going left), keeping the order and a node's height of room between neighbours.
  const pitch = NODE_HEIGHT + NODE_GAP;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let L = 0; L <= maxLayer; L++) {
    const l = layers[L]!;
    l.forEach((v, i) => {
      x[v] = L * (NODE_WIDTH + LAYER_GAP);
      y[v] = (i - (l.length - 1) / 2) * pitch;
    });
  }
  const want = new Float64Array(n);
  const a = new Float64Array(n);
  const place = (l: number[], neighbours: number[][]) => {
    if (!l.length) return;
    for (const v of l) {
      const ns = neighbours[v]!;
      want[v] = ns.length ? ns.reduce((s2, u) => s2 + y[u]!, 0) / ns.length : y[v]!;
    }
    // as close to the wanted heights as the order and spacing allow: pushed down, pushed up, averaged, then made to fit
    for (let i = 0; i < l.length; i++) a[l[i]!] = i === 0 ? want[l[i]!]! : Math.max(want[l[i]!]!, a[l[i - 1]!]! + pitch);
    let below = Infinity;
    for (let i = l.length - 1; i >= 0; i--) {
      const v = l[i]!;
      const b = Math.min(want[v]!, below - pitch);
      y[v] = (a[v]! + b) / 2;
      below = b;
    }
    for (let i = 1; i < l.length; i++) y[l[i]!] = Math.max(y[l[i]!]!, y[l[i - 1]!]! + pitch);
  };
  for (let sweep = 0; sweep < 4; sweep++) {
    if (sweep % 2 === 0) for (let L = 1; L <= maxLayer; L++) place(layers[L]!, pred);
    else for (let L = maxLayer - 1; L >= 0; L--) place(layers[L]!, succ);
  }
  let top = Infinity;
  let height = 0;
  for (let i = 0; i < n; i++) top = Math.min(top, y[i]!);
  for (let i = 0; i < n; i++) {
    y[i] = y[i]! - (Number.isFinite(top) ? top : 0);
    height = Math.max(height, y[i]! + NODE_HEIGHT);
  }
  const edge = new Int32Array(kept.length);
  const offsets = new Int32Array(kept.length + 1);
  const points = new Float64Array(kept.length * 4);
  kept.forEach((k, i) => {
    const a = from[k]!,
      b = to[k]!;
    edge[i] = k;
    offsets[i] = i * 4;
    points.set([x[a]! + NODE_WIDTH, y[a]! + NODE_HEIGHT / 2, x[b]!, y[b]! + NODE_HEIGHT / 2], i * 4);
  });
  offsets[kept.length] = kept.length * 4;
  return {
    x,
    y,
    edge,
    offsets,
    points,
    width: (maxLayer + 1) * (NODE_WIDTH + LAYER_GAP) - LAYER_GAP,
    height: Math.max(height, NODE_HEIGHT),
  };
}

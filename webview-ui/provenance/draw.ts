/**
 * Canvas drawing of a laid-out provenance graph. SVG with 5,000 nodes, 6,000 edges and
 * their labels is too many DOM nodes to pan smoothly (see docs/notes/extension.md); one canvas
 * redraws only what is in view, batches fills by colour and drops labels when zoomed out.
 */
import type { ProvenanceGraph, GraphFilters } from '../../src/shared/provenanceGraph';
import type { GraphLayout } from './layout';
import type { Palette } from './palette';

export interface ViewTransform {
  x: number;
  y: number;
  k: number;
}

export interface DrawState {
  selected?: number;
  filters: GraphFilters;
  /** Precomputed: node index → matches the active filters (undefined when no filter is on). */
  matches?: Uint8Array;
}

export const LABEL_MIN_SCALE = 0.45;
const OVERVIEW_SCALE = 0.2;

export function filterMatches(graph: ProvenanceGraph, filters: GraphFilters): Uint8Array | undefined {
  if (!filters.stale && !filters.warned && !filters.failed) return undefined;
  const m = new Uint8Array(graph.nodes.length);
  graph.nodes.forEach((n, i) => {
    m[i] = (filters.stale && n.stale) || (filters.warned && n.warned) || (filters.failed && n.failed) ? 1 : 0;
  });
  return m;
}

export function drawGraph(
  ctx: CanvasRenderingContext2D,
  size: { width: number; height: number; dpr: number },
  t: ViewTransform,
  graph: ProvenanceGraph,
  layout: GraphLayout,
  state: DrawState,
  palette: Palette,
): { nodesDrawn: number; edgesDrawn: number } {
  const { width, height, dpr } = size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = palette.background;
  ctx.fillRect(0, 0, width, height);
  ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);
  const x0 = -t.x / t.k,
    y0 = -t.y / t.k,
    x1 = (width - t.x) / t.k,
    y1 = (height - t.y) / t.k;
  const m = state.matches;
  const dimmed = (i: number) => (m ? m[i] === 0 : false);
  const index = indexOf(graph);

  let edgesDrawn = 0;
  ctx.lineWidth = 1 / Math.max(t.k, 0.25);
  const strokeEdges = (alpha: number, wanted: (from: number, to: number) => boolean) => {
    ctx.beginPath();
    for (const r of layout.routed) {
      if (r.maxX < x0 || r.minX > x1 || r.maxY < y0 || r.minY > y1) continue;
      const e = graph.edges[r.edge]!;
      if (!wanted(index.get(e.from)!, index.get(e.to)!)) continue;
      ctx.moveTo(r.points[0]!, r.points[1]!);
      for (let i = 2; i < r.points.length; i += 2) ctx.lineTo(r.points[i]!, r.points[i + 1]!);
      edgesDrawn++;
    }
    ctx.globalAlpha = alpha;
    ctx.strokeStyle = palette.edge;
    ctx.stroke();
    ctx.globalAlpha = 1;
  };
  if (m) {
    strokeEdges(0.15, (a, b) => dimmed(a) || dimmed(b));
    strokeEdges(0.9, (a, b) => !dimmed(a) && !dimmed(b));
  } else {
    strokeEdges(0.8, () => true);
  }

  // Edges left out of the layout (implied by longer paths) appear for the selected node.
  if (state.selected !== undefined) {
    const sel = graph.nodes[state.selected]!.id;
    ctx.beginPath();
    for (const k of layout.omitted) {
      const e = graph.edges[k]!;
      if (e.from !== sel && e.to !== sel) continue;
      const a = layout.nodes[index.get(e.from)!]!;
      const b = layout.nodes[index.get(e.to)!]!;
      ctx.moveTo(a.x + a.w, a.y + a.h / 2);
      ctx.lineTo(b.x, b.y + b.h / 2);
      edgesDrawn++;
    }
    ctx.setLineDash([6, 4]);
    ctx.strokeStyle = palette.selection;
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // Node bodies batched by colour and dimming: one fill and one stroke per batch.
  const visible: number[] = [];
  for (let i = 0; i < layout.nodes.length; i++) {
    const p = layout.nodes[i]!;
    if (p.x + p.w < x0 || p.x > x1 || p.y + p.h < y0 || p.y > y1) continue;
    visible.push(i);
  }
  const batches = new Map<string, number[]>();
  for (const i of visible) {
    const key = `${graph.nodes[i]!.verdict}|${dimmed(i) ? 1 : 0}`;
    let b = batches.get(key);
    if (!b) batches.set(key, (b = []));
    b.push(i);
  }
  // Zoomed far out a node is a few pixels: a filled rectangle in its verdict colour says all there is.
  if (t.k < OVERVIEW_SCALE) {
    for (const [key, list] of batches) {
      const [verdict, dim] = key.split('|') as [keyof Palette['verdict'], string];
      ctx.globalAlpha = dim === '1' ? 0.18 : 1;
      ctx.fillStyle = palette.verdict[verdict];
      ctx.beginPath();
      for (const i of list) {
        const p = layout.nodes[i]!;
        ctx.rect(p.x, p.y, p.w, p.h);
      }
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    if (state.selected !== undefined) {
      const p = layout.nodes[state.selected]!;
      ctx.strokeStyle = palette.selection;
      ctx.lineWidth = 3 / t.k;
      ctx.strokeRect(p.x - 3, p.y - 3, p.w + 6, p.h + 6);
    }
    return { nodesDrawn: visible.length, edgesDrawn };
  }
  ctx.lineWidth = 2 / Math.max(t.k, 0.5);
  for (const [key, list] of batches) {
    const [verdict, dim] = key.split('|') as [keyof Palette['verdict'], string];
    ctx.globalAlpha = dim === '1' ? 0.18 : 1;
    ctx.beginPath();
    for (const i of list) nodePath(ctx, graph.nodes[i]!.type, layout.nodes[i]!);
    ctx.fillStyle = palette.nodeFill;
    ctx.fill();
    ctx.strokeStyle = palette.verdict[verdict];
    ctx.stroke();
    // A verdict mark on the left keeps the colour readable when the outline is thin.
    ctx.fillStyle = palette.verdict[verdict];
    ctx.beginPath();
    for (const i of list) {
      const p = layout.nodes[i]!;
      if (graph.nodes[i]!.type === 'call') ctx.rect(p.x, p.y, 6, p.h);
      else {
        ctx.moveTo(p.x + 17, p.y + p.h / 2);
        ctx.arc(p.x + 12, p.y + p.h / 2, 5, 0, 2 * Math.PI);
      }
    }
    ctx.fill();
  }
  ctx.globalAlpha = 1;

  // Stale artifacts are hatched so the flag reads without colour.
  ctx.beginPath();
  for (const i of visible) {
    if (!graph.nodes[i]!.stale) continue;
    const p = layout.nodes[i]!;
    for (let x = p.x + 10; x < p.x + p.w; x += 10) {
      ctx.moveTo(x, p.y + p.h);
      ctx.lineTo(Math.min(x + p.h * 0.6, p.x + p.w), p.y);
    }
  }
  ctx.strokeStyle = palette.muted;
  ctx.lineWidth = 1 / Math.max(t.k, 0.5);
  ctx.globalAlpha = 0.35;
  ctx.stroke();
  ctx.globalAlpha = 1;

  if (state.selected !== undefined) {
    const p = layout.nodes[state.selected]!;
    ctx.beginPath();
    ctx.rect(p.x - 3, p.y - 3, p.w + 6, p.h + 6);
    ctx.strokeStyle = palette.selection;
    ctx.lineWidth = 3 / Math.max(t.k, 0.5);
    ctx.stroke();
  }

  if (t.k >= LABEL_MIN_SCALE) {
    ctx.textBaseline = 'middle';
    for (const i of visible) {
      const n = graph.nodes[i]!;
      const p = layout.nodes[i]!;
      ctx.globalAlpha = dimmed(i) ? 0.3 : 1;
      ctx.fillStyle = palette.text;
      ctx.font = `${n.type === 'call' ? '600 ' : ''}12px ${palette.fontFamily}`;
      ctx.fillText(clip(n.label, 21), p.x + 22, p.y + 11, p.w - 28);
      ctx.fillStyle = palette.muted;
      ctx.font = `11px ${palette.fontFamily}`;
      ctx.fillText(clip(n.detail + (n.stale ? ' · stale' : ''), 24), p.x + 22, p.y + 25, p.w - 28);
    }
    ctx.globalAlpha = 1;
  }
  return { nodesDrawn: visible.length, edgesDrawn };
}

function nodePath(ctx: CanvasRenderingContext2D, type: 'call' | 'artifact', p: { x: number; y: number; w: number; h: number }): void {
  if (type === 'call') {
    ctx.rect(p.x, p.y, p.w, p.h);
    return;
  }
  // Artifacts are pills: data, not actions.
  const r = p.h / 2;
  ctx.moveTo(p.x + r, p.y);
  ctx.lineTo(p.x + p.w - r, p.y);
  ctx.arc(p.x + p.w - r, p.y + r, r, -Math.PI / 2, Math.PI / 2);
  ctx.lineTo(p.x + r, p.y + p.h);
  ctx.arc(p.x + r, p.y + r, r, Math.PI / 2, (3 * Math.PI) / 2);
  ctx.closePath();
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

const indexCache = new WeakMap<ProvenanceGraph, Map<string, number>>();
function indexOf(graph: ProvenanceGraph): Map<string, number> {
  let m = indexCache.get(graph);
  if (!m) {
    m = new Map(graph.nodes.map((n, i) => [n.id, i]));
    indexCache.set(graph, m);
  }
  return m;
}

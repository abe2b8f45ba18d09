/**
 * Layered (Sugiyama) layout of the provenance graph with ELK (elkjs), run in a Web
 * Worker when the webview allows one so panning stays live while a large run is laid out.
 *
 * Why ELK: maintained (Eclipse), a full layered pipeline with edge routes, runs in a
 * worker out of the box. Measured on a 5,000-node provenance-shaped DAG (see
 * docs/notes/extension.md): dagre took ~110 s, d3-dag's sugiyama did not finish in 90 s, ELK
 * with defaults ~10 s and, with thoroughness 1, polyline routing and the transitive
 * reduction below, ~2 s.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { ProvenanceGraph } from '../../src/shared/provenanceGraph';
import { transitiveReduction } from './transitiveReduction';

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 34;

export interface PlacedNode {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface RoutedEdge {
  /** Index into graph.edges. */
  edge: number;
  /** Flat x,y pairs. */
  points: number[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface GraphLayout {
  nodes: PlacedNode[];
  routed: RoutedEdge[];
  /** Edges implied by longer paths: not laid out, drawn when an end is selected. */
  omitted: number[];
  width: number;
  height: number;
  ms: number;
  where: 'worker' | 'main-thread';
}

type ElkInstance = InstanceType<typeof ELK>;

/** Large graphs trade crossing quality for time; small ones get ELK's full effort. */
function optionsFor(nodeCount: number): Record<string, string> {
  return {
    'elk.algorithm': 'layered',
    'elk.direction': 'RIGHT',
    'elk.edgeRouting': 'POLYLINE',
    'elk.layered.thoroughness': nodeCount > 800 ? '1' : '7',
    'elk.spacing.nodeNode': '14',
    'elk.layered.spacing.nodeNodeBetweenLayers': '48',
    'elk.layered.spacing.edgeNodeBetweenLayers': '16',
  };
}

/**
 * Inside the layout worker: elkjs's bundled build installs its message handler on the
 * worker's global scope when its worker half is first loaded, which constructing an
 * ELK without a worker factory does.
 */
export function serveLayoutsInThisWorker(): void {
  new ELK();
}

export class GraphLayouter {
  private elk: ElkInstance | undefined;
  private where: 'worker' | 'main-thread' = 'main-thread';

  /** `workerScript`: URL of this bundle, re-used as the layout worker. */
  constructor(private readonly workerScript: string | undefined) {}

  private async instance(): Promise<ElkInstance> {
    if (this.elk) return this.elk;
    if (this.workerScript && typeof Worker !== 'undefined') {
      try {
        // Webview resources are cross-origin for Worker(); a blob URL of the same bytes is not.
        // Right after a window reload the webview's resource loader can stall: fall back rather than wait.
        const response = await Promise.race([
          fetch(this.workerScript),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('worker script fetch timed out')), 4000)),
        ]);
        const blob = await response.blob();
        const url = URL.createObjectURL(new Blob([blob], { type: 'text/javascript' }));
        this.elk = new ELK({ workerFactory: () => new Worker(url) as never });
        this.where = 'worker';
        return this.elk;
      } catch {
        // CSP without worker-src blob:, or no fetch of the script: lay out on the main thread.
      }
    }
    this.elk = new ELK();
    this.where = 'main-thread';
    return this.elk;
  }

  async layout(graph: ProvenanceGraph): Promise<GraphLayout> {
    const elk = await this.instance();
    const t0 = performance.now();
    const ids = graph.nodes.map((n) => n.id);
    const { kept, omitted } = transitiveReduction(ids, graph.edges);
    const root: ElkNode = {
      id: '__root',
      layoutOptions: optionsFor(ids.length),
      children: ids.map((id) => ({ id, width: NODE_WIDTH, height: NODE_HEIGHT })),
      edges: kept.map((k): ElkExtendedEdge => ({ id: `e${k}`, sources: [graph.edges[k]!.from], targets: [graph.edges[k]!.to] })),
    };
    const out = await elk.layout(root);
    const pos = new Map<string, PlacedNode>();
    for (const c of out.children ?? []) pos.set(c.id, { x: c.x ?? 0, y: c.y ?? 0, w: c.width ?? NODE_WIDTH, h: c.height ?? NODE_HEIGHT });
    const nodes = ids.map((id) => pos.get(id) ?? { x: 0, y: 0, w: NODE_WIDTH, h: NODE_HEIGHT });
    const routed: RoutedEdge[] = [];
    for (const e of out.edges ?? []) {
      const k = Number(e.id.slice(1));
      const pts: number[] = [];
      for (const s of e.sections ?? []) {
        pts.push(s.startPoint.x, s.startPoint.y);
        for (const b of s.bendPoints ?? []) pts.push(b.x, b.y);
        pts.push(s.endPoint.x, s.endPoint.y);
      }
      if (pts.length < 4) continue;
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (let i = 0; i < pts.length; i += 2) {
        minX = Math.min(minX, pts[i]!);
        maxX = Math.max(maxX, pts[i]!);
        minY = Math.min(minY, pts[i + 1]!);
        maxY = Math.max(maxY, pts[i + 1]!);
      }
      routed.push({ edge: k, points: pts, minX, minY, maxX, maxY });
    }
    return {
      nodes,
      routed,
      omitted,
      width: out.width ?? 0,
      height: out.height ?? 0,
      ms: performance.now() - t0,
      where: this.where,
    };
  }
}

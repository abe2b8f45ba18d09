/**
 * Layout of the provenance graph, in a Web Worker (the provenance bundle is its own worker):
 * first a provisional layered layout (quickLayout.ts, tens of milliseconds), so a graph of
 * thousands of nodes is on screen at once, then ELK's refined layered layout (elkjs, seconds),
 * which replaces it. Both answer the same request; a newer request ends the worker's work on
 * an older one (the worker is replaced), so a live run never queues stale layouts.
 *
 * Why ELK for the refined layout: maintained (Eclipse), a full layered pipeline with edge
 * routes, runs in a worker. Measured on a 5,000-node provenance-shaped DAG (docs/notes/ui.md):
 * dagre ~110 s, d3-dag's sugiyama did not finish in 90 s, ELK with defaults ~10 s and, with
 * thoroughness 1, polyline routing and the transitive reduction, 2–3 s.
 */
import type ELKType from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { ProvenanceGraph } from '../../src/shared/provenanceGraph';
import { NODE_HEIGHT, NODE_WIDTH, quickLayout, type PackedLayout } from './quickLayout';
import { transitiveReductionIndexed } from './transitiveReduction';

export { NODE_HEIGHT, NODE_WIDTH };
export type LayoutPhase = 'quick' | 'refined';

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
  phase: LayoutPhase;
}

interface LayoutRequest {
  dreams: 'layout';
  seq: number;
  n: number;
  from: Int32Array;
  to: Int32Array;
  /** Send the provisional layout first. */
  quick: boolean;
}

type LayoutReply =
  | { dreams: 'placed'; seq: number; phase: LayoutPhase; packed: PackedLayout; omitted: Int32Array; ms: number }
  | { dreams: 'layout-error'; seq: number; message: string };

type ElkInstance = InstanceType<typeof ELKType>;

/**
 * elkjs is evaluated on first use, not when the bundle loads: the provisional layout (and the
 * page itself) need none of it, and its start-up would otherwise delay the first paint.
 */
let elkModule: Promise<typeof ELKType> | undefined;
const loadElk = (): Promise<ElkInstance> =>
  (elkModule ??= import('elkjs/lib/elk.bundled.js').then(
    (m) => (m as unknown as { default?: typeof ELKType }).default ?? (m as unknown as typeof ELKType),
  )).then((E) => new E());

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

async function elkLayout(elk: ElkInstance, req: LayoutRequest, kept: number[]): Promise<PackedLayout> {
  const root: ElkNode = {
    id: '__root',
    layoutOptions: optionsFor(req.n),
    children: Array.from({ length: req.n }, (_, i) => ({ id: `n${i}`, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: kept.map((k): ElkExtendedEdge => ({ id: `e${k}`, sources: [`n${req.from[k]}`], targets: [`n${req.to[k]}`] })),
  };
  const out = await elk.layout(root);
  const x = new Float64Array(req.n);
  const y = new Float64Array(req.n);
  for (const c of out.children ?? []) {
    const i = Number(c.id.slice(1));
    x[i] = c.x ?? 0;
    y[i] = c.y ?? 0;
  }
  const edges: number[] = [];
  const offsets: number[] = [0];
  const points: number[] = [];
  for (const e of out.edges ?? []) {
    const start = points.length;
    for (const s of e.sections ?? []) {
      points.push(s.startPoint.x, s.startPoint.y);
      for (const b of s.bendPoints ?? []) points.push(b.x, b.y);
      points.push(s.endPoint.x, s.endPoint.y);
    }
    if (points.length - start < 4) {
      points.length = start;
      continue;
    }
    edges.push(Number(e.id.slice(1)));
    offsets.push(points.length);
  }
  return {
    x,
    y,
    edge: Int32Array.from(edges),
    offsets: Int32Array.from(offsets),
    points: Float64Array.from(points),
    width: out.width ?? 0,
    height: out.height ?? 0,
  };
}

/** What the worker (or the main thread, when there is no worker) does with one request. */
async function answer(
  req: LayoutRequest,
  elk: () => Promise<ElkInstance>,
  post: (r: LayoutReply, transfer: Transferable[]) => void,
): Promise<void> {
  const t0 = performance.now();
  try {
    const { kept, omitted } = transitiveReductionIndexed(req.n, req.from, req.to);
    const omittedArr = Int32Array.from(omitted);
    const send = (phase: LayoutPhase, p: PackedLayout) => {
      const o = phase === 'quick' ? omittedArr.slice() : omittedArr;
      post({ dreams: 'placed', seq: req.seq, phase, packed: p, omitted: o, ms: performance.now() - t0 }, [
        p.x.buffer,
        p.y.buffer,
        p.edge.buffer,
        p.offsets.buffer,
        p.points.buffer,
        o.buffer,
      ]);
    };
    if (req.quick) send('quick', quickLayout(req.n, req.from, req.to, kept));
    send('refined', await elkLayout(await elk(), req, kept));
  } catch (e) {
    post({ dreams: 'layout-error', seq: req.seq, message: (e as Error).message ?? String(e) }, []);
  }
}

/** Inside the layout worker: answer layout requests (quick, then refined). */
export function serveLayoutsInThisWorker(): void {
  let elk: Promise<ElkInstance> | undefined;
  const scope = self as unknown as {
    addEventListener(t: 'message', l: (ev: MessageEvent) => void): void;
    postMessage(m: unknown, t: Transferable[]): void;
  };
  scope.addEventListener('message', (ev: MessageEvent) => {
    const req = ev.data as Partial<LayoutRequest> | undefined;
    if (req?.dreams !== 'layout') return; // (elkjs's own messages, if any)
    void answer(
      req as LayoutRequest,
      () => (elk ??= loadElk()),
      (r, t) => scope.postMessage(r, t),
    );
  });
}

function unpack(graph: ProvenanceGraph, reply: Extract<LayoutReply, { dreams: 'placed' }>, where: GraphLayout['where']): GraphLayout {
  const p = reply.packed;
  const nodes: PlacedNode[] = graph.nodes.map((_, i) => ({ x: p.x[i] ?? 0, y: p.y[i] ?? 0, w: NODE_WIDTH, h: NODE_HEIGHT }));
  const routed: RoutedEdge[] = [];
  for (let r = 0; r < p.edge.length; r++) {
    const pts = Array.from(p.points.subarray(p.offsets[r]!, p.offsets[r + 1]!));
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (let i = 0; i < pts.length; i += 2) {
      minX = Math.min(minX, pts[i]!);
      maxX = Math.max(maxX, pts[i]!);
      minY = Math.min(minY, pts[i + 1]!);
      maxY = Math.max(maxY, pts[i + 1]!);
    }
    routed.push({ edge: p.edge[r]!, points: pts, minX, minY, maxX, maxY });
  }
  return { nodes, routed, omitted: Array.from(reply.omitted), width: p.width, height: p.height, ms: reply.ms, where, phase: reply.phase };
}

interface Pending {
  seq: number;
  graph: ProvenanceGraph;
  onLayout: (l: GraphLayout) => void;
  resolve: () => void;
  reject: (e: Error) => void;
}

export class GraphLayouter {
  private worker: Worker | undefined;
  private workerUrl: Promise<string | undefined> | undefined;
  private mainElk: Promise<ElkInstance> | undefined;
  private pending: Pending | undefined;
  private seq = 0;

  /** `workerScript`: URL of this bundle, re-used as the layout worker. */
  constructor(private readonly workerScript: string | undefined) {}

  /** Fetch the worker script and start the worker now, so the first graph does not wait for it. */
  warm(): void {
    void this.ensureWorker();
  }

  private scriptUrl(): Promise<string | undefined> {
    this.workerUrl ??= (async () => {
      if (!this.workerScript || typeof Worker === 'undefined') return undefined;
      try {
        // Webview resources are cross-origin for Worker(); a blob URL of the same bytes is not.
        // Right after a window reload the webview's resource loader can stall: fall back rather than wait.
        const response = await Promise.race([
          fetch(this.workerScript),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('worker script fetch timed out')), 4000)),
        ]);
        const blob = await response.blob();
        return URL.createObjectURL(new Blob([blob], { type: 'text/javascript' }));
      } catch {
        return undefined; // CSP without worker-src blob:, or no fetch of the script: lay out on the main thread
      }
    })();
    return this.workerUrl;
  }

  private async ensureWorker(): Promise<Worker | undefined> {
    if (this.worker) return this.worker;
    const url = await this.scriptUrl();
    if (!url || this.worker) return this.worker;
    try {
      const w = new Worker(url);
      w.addEventListener('message', (ev: MessageEvent) => this.onReply(ev.data as LayoutReply, 'worker'));
      w.addEventListener('error', (ev) => this.pending?.reject(new Error(ev.message || 'the layout worker failed')));
      this.worker = w;
    } catch {
      this.worker = undefined;
    }
    return this.worker;
  }

  private onReply(r: LayoutReply, where: GraphLayout['where']): void {
    const p = this.pending;
    if (!r || (r.dreams !== 'placed' && r.dreams !== 'layout-error') || !p || r.seq !== p.seq) return;
    if (r.dreams === 'layout-error') {
      this.pending = undefined;
      p.reject(new Error(r.message));
      return;
    }
    p.onLayout(unpack(p.graph, r, where));
    if (r.phase === 'refined') {
      this.pending = undefined;
      p.resolve();
    }
  }

  /**
   * Lay out `graph`: `onLayout` gets the provisional layout (with `quick`) and then the refined
   * one; resolves after the refined one. A newer call supersedes this one (its promise rejects).
   */
  async layout(graph: ProvenanceGraph, opts: { quick: boolean }, onLayout: (l: GraphLayout) => void): Promise<void> {
    const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
    const from = Int32Array.from(graph.edges, (e) => index.get(e.from) ?? -1);
    const to = Int32Array.from(graph.edges, (e) => index.get(e.to) ?? -1);
    const req: LayoutRequest = { dreams: 'layout', seq: ++this.seq, n: graph.nodes.length, from, to, quick: opts.quick };
    if (this.pending) {
      this.pending.reject(new Error('superseded by a newer layout'));
      this.pending = undefined;
      // the worker may be deep in ELK for the old graph: replace it rather than wait
      this.worker?.terminate();
      this.worker = undefined;
    }
    const done = new Promise<void>((resolve, reject) => (this.pending = { seq: req.seq, graph, onLayout, resolve, reject }));
    const worker = await this.ensureWorker();
    if ((this.pending as Pending | undefined)?.seq !== req.seq) return done; // superseded while the worker started
    if (worker) {
      worker.postMessage(req, [from.buffer, to.buffer]);
    } else {
      await answer(
        req,
        () => (this.mainElk ??= loadElk()),
        (r) => this.onReply(r, 'main-thread'),
      );
    }
    return done;
  }
}

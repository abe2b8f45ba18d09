/**
 * The provenance panel's page: toolbar (scope, filters, fit), the canvas with pan and
 * zoom (d3-zoom), hit-testing (d3-quadtree) and a details pane for the selected node.
 * Talks to the host only through the typed messages in src/shared/provenanceGraph.ts.
 */
import { select, zoom, zoomIdentity, quadtree, type ZoomBehavior, type Quadtree } from 'd3';
import type {
  GraphFilters,
  GraphToHostMessage,
  HostToGraphMessage,
  ProvenanceGraph,
  ProvenanceGraphNode,
  ProvenancePanelState,
  RevealTarget,
} from '../../src/shared/provenanceGraph';
import { drawGraph, filterMatches, type ViewTransform } from './draw';
import { GraphLayouter, type GraphLayout } from './layout';
import { themePalette, type Palette } from './palette';

export interface HostApi {
  postMessage(m: GraphToHostMessage): void;
  getState(): ProvenancePanelState | undefined;
  setState(s: ProvenancePanelState): void;
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

/** What a click shows by default: the file of a QE input/output, a call's job, else the cell. */
export function defaultTarget(n: ProvenanceGraphNode): RevealTarget | undefined {
  if (n.file && (n.kind === 'qe-input' || n.kind === 'qe-output' || n.kind === 'file')) return 'file';
  if (n.type === 'call') return n.job ? 'job' : undefined;
  if (n.cell) return 'cell';
  if (n.file) return 'file';
  return n.job ? 'job' : undefined;
}

export class GraphView {
  private graph: ProvenanceGraph | undefined;
  private layout: GraphLayout | undefined;
  private tree: Quadtree<number> | undefined;
  private transform: ViewTransform = { x: 0, y: 0, k: 1 };
  private selected: number | undefined;
  private filters: GraphFilters;
  private matches: Uint8Array | undefined;
  private palette: Palette;
  private frame = 0;
  private generation = 0;
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly status: HTMLElement;
  private readonly scopeLabel: HTMLElement;
  private readonly wholeRun: HTMLButtonElement;
  private readonly details: HTMLElement;
  private readonly counts: Record<keyof GraphFilters, HTMLElement>;
  private readonly zoomer: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly layouter: GraphLayouter;
  private pendingSelect: string | undefined;
  /** Last full draw, for the responsiveness figure in bench:ui. */
  lastDrawMs = 0;

  constructor(root: HTMLElement, private readonly host: HostApi, workerScript: string | undefined) {
    this.layouter = new GraphLayouter(workerScript);
    this.filters = host.getState()?.filters ?? { stale: false, warned: false, failed: false };
    const toolbar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Provenance graph' });
    this.scopeLabel = el('span', { class: 'scope' });
    this.wholeRun = el('button', { type: 'button', class: 'whole-run', hidden: '' }, 'Whole run');
    this.wholeRun.addEventListener('click', () => host.postMessage({ type: 'whole-run' }));
    toolbar.append(this.scopeLabel, this.wholeRun);
    const filterBox = el('span', { class: 'filters', role: 'group', 'aria-label': 'Show only' });
    filterBox.append(el('span', { class: 'muted' }, 'Show only:'));
    this.counts = {} as Record<keyof GraphFilters, HTMLElement>;
    for (const f of ['stale', 'warned', 'failed'] as const) {
      const label = el('label', { class: `filter filter-${f}` });
      const box = el('input', { type: 'checkbox', 'data-filter': f }) as HTMLInputElement;
      box.checked = this.filters[f];
      box.addEventListener('change', () => {
        this.filters = { ...this.filters, [f]: box.checked };
        this.saveState();
        this.refilter();
      });
      const count = el('span', { class: 'count' });
      this.counts[f] = count;
      label.append(box, ` ${f} `, count);
      filterBox.append(label);
    }
    const fit = el('button', { type: 'button', class: 'fit', title: 'Fit the graph to the window' }, 'Fit');
    fit.addEventListener('click', () => this.fit());
    this.status = el('span', { class: 'status', role: 'status', 'aria-live': 'polite' });
    toolbar.append(filterBox, fit, this.status);
    const main = el('div', { class: 'main' });
    this.canvas = el('canvas', { class: 'graph', role: 'img', 'aria-label': 'Provenance graph' }) as HTMLCanvasElement;
    this.details = el('aside', { class: 'details', 'aria-label': 'Selected node', hidden: '' });
    main.append(this.canvas, this.details);
    root.append(toolbar, main);
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.palette = themePalette();

    this.zoomer = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.01, 4])
      .on('zoom', (e: { transform: ViewTransform }) => {
        this.transform = { x: e.transform.x, y: e.transform.y, k: e.transform.k };
        this.schedule();
      });
    select(this.canvas).call(this.zoomer).on('dblclick.zoom', null);
    this.canvas.addEventListener('click', (ev) => this.onClick(ev));
    new ResizeObserver(() => this.resize()).observe(main);
    // Theme changes arrive as a class change on body.
    new MutationObserver(() => {
      this.palette = themePalette();
      this.schedule();
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
    window.addEventListener('message', (ev: MessageEvent<HostToGraphMessage>) => void this.onMessage(ev.data));
  }

  private saveState(): void {
    const prev = this.host.getState();
    if (prev) this.host.setState({ ...prev, filters: this.filters });
  }

  async onMessage(m: HostToGraphMessage): Promise<void> {
    if (m.type === 'graph') {
      if (m.persist) this.host.setState({ ...m.persist, filters: this.filters });
      await this.show(m.graph, m.select);
    } else if (m.type === 'select') {
      this.selectById(m.id);
    } else if (m.type === 'notice') {
      this.status.textContent = m.text;
      this.status.classList.toggle('error', m.level === 'error');
    }
  }

  async show(graph: ProvenanceGraph, selectId?: string): Promise<void> {
    const gen = ++this.generation;
    const firstOfRun = !this.graph || this.graph.runId !== graph.runId || JSON.stringify(this.graph.scope) !== JSON.stringify(graph.scope);
    const previousSelection = this.selected !== undefined ? this.graph?.nodes[this.selected]?.id : undefined;
    this.status.textContent = `Laying out ${graph.nodes.length.toLocaleString()} nodes…`;
    this.status.classList.remove('error');
    this.scopeLabel.textContent = graph.scope.kind === 'run' ? `Run ${graph.runId}` : `Upstream of ${graph.scope.of}`;
    this.wholeRun.hidden = graph.scope.kind === 'run';
    let layout: GraphLayout;
    try {
      layout = await this.layouter.layout(graph);
    } catch (e) {
      const text = `Could not lay out the graph (${graph.nodes.length} nodes): ${(e as Error).message}. Reopen the panel; if it persists, report the run's events.jsonl.`;
      this.status.textContent = text;
      this.status.classList.add('error');
      this.host.postMessage({ type: 'error', text });
      return;
    }
    if (gen !== this.generation) return; // a newer graph arrived while this one was laid out
    this.graph = graph;
    this.layout = layout;
    this.tree = quadtree<number>()
      .x((i) => layout.nodes[i]!.x + layout.nodes[i]!.w / 2)
      .y((i) => layout.nodes[i]!.y + layout.nodes[i]!.h / 2)
      .addAll(graph.nodes.map((_, i) => i));
    this.matches = filterMatches(graph, this.filters);
    this.updateCounts();
    this.selected = undefined;
    const want = selectId ?? this.pendingSelect ?? previousSelection;
    this.pendingSelect = undefined;
    const t0 = performance.now();
    this.resize(false);
    if (firstOfRun) this.fit(false);
    if (want) this.selectById(want, false);
    this.drawNow();
    const renderMs = performance.now() - t0;
    this.status.textContent = `${graph.nodes.length.toLocaleString()} nodes · ${graph.edges.length.toLocaleString()} edges`;
    this.host.postMessage({
      type: 'rendered',
      nodes: graph.nodes.length,
      edges: graph.edges.length,
      layoutMs: Math.round(layout.ms),
      renderMs: Math.round(renderMs * 10) / 10,
      layout: layout.where,
    });
  }

  private updateCounts(): void {
    const g = this.graph!;
    this.counts.stale.textContent = `(${g.nodes.filter((n) => n.stale).length})`;
    this.counts.warned.textContent = `(${g.nodes.filter((n) => n.warned).length})`;
    this.counts.failed.textContent = `(${g.nodes.filter((n) => n.failed).length})`;
  }

  private refilter(): void {
    if (this.graph) this.matches = filterMatches(this.graph, this.filters);
    this.schedule();
  }

  private resize(redraw = true): void {
    const dpr = window.devicePixelRatio || 1;
    const r = this.canvas.getBoundingClientRect();
    this.canvas.width = Math.max(1, Math.round(r.width * dpr));
    this.canvas.height = Math.max(1, Math.round(r.height * dpr));
    if (redraw) this.schedule();
  }

  fit(redraw = true): void {
    if (!this.layout) return;
    const r = this.canvas.getBoundingClientRect();
    const pad = 24;
    const k = Math.min(2, Math.max(0.01, Math.min((r.width - 2 * pad) / Math.max(1, this.layout.width), (r.height - 2 * pad) / Math.max(1, this.layout.height))));
    // A huge run fitted whole is unreadable: start at a scale where labels show, at its first layer.
    const scale = this.graph!.nodes.length > 400 ? Math.max(k, 0.75) : k;
    const x = scale === k ? (r.width - this.layout.width * k) / 2 : pad;
    const y = scale === k ? (r.height - this.layout.height * k) / 2 : pad;
    select(this.canvas).call(this.zoomer.transform, zoomIdentity.translate(x, y).scale(scale));
    if (redraw) this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.drawNow();
    });
  }

  drawNow(): void {
    if (!this.graph || !this.layout) return;
    const t0 = performance.now();
    const r = this.canvas.getBoundingClientRect();
    const state = this.selected === undefined
      ? { filters: this.filters, ...(this.matches ? { matches: this.matches } : {}) }
      : { filters: this.filters, selected: this.selected, ...(this.matches ? { matches: this.matches } : {}) };
    drawGraph(this.ctx, { width: r.width, height: r.height, dpr: window.devicePixelRatio || 1 }, this.transform, this.graph, this.layout, state, this.palette);
    this.lastDrawMs = performance.now() - t0;
  }

  /** Node under a canvas point (client coordinates relative to the canvas), if any. */
  nodeAt(cx: number, cy: number): number | undefined {
    if (!this.tree || !this.layout) return undefined;
    const x = (cx - this.transform.x) / this.transform.k;
    const y = (cy - this.transform.y) / this.transform.k;
    const i = this.tree.find(x, y, 100);
    if (i === undefined) return undefined;
    const p = this.layout.nodes[i]!;
    return x >= p.x && x <= p.x + p.w && y >= p.y && y <= p.y + p.h ? i : undefined;
  }

  /** Canvas coordinates of a node's centre (tests click there). */
  centreOf(id: string): { x: number; y: number } | undefined {
    const i = this.graph?.nodes.findIndex((n) => n.id === id) ?? -1;
    if (i < 0 || !this.layout) return undefined;
    const p = this.layout.nodes[i]!;
    return { x: (p.x + p.w / 2) * this.transform.k + this.transform.x, y: (p.y + p.h / 2) * this.transform.k + this.transform.y };
  }

  private onClick(ev: MouseEvent): void {
    const r = this.canvas.getBoundingClientRect();
    const i = this.nodeAt(ev.clientX - r.left, ev.clientY - r.top);
    if (i === undefined) {
      this.selected = undefined;
      this.details.hidden = true;
      this.schedule();
      return;
    }
    this.selectIndex(i);
    const node = this.graph!.nodes[i]!;
    const target = defaultTarget(node);
    if (target) this.host.postMessage({ type: 'reveal', id: node.id, target });
  }

  private selectById(id: string, redraw = true): void {
    const i = this.graph?.nodes.findIndex((n) => n.id === id) ?? -1;
    if (i < 0) {
      this.pendingSelect = id;
      return;
    }
    this.selectIndex(i, redraw);
    const p = this.layout!.nodes[i]!;
    const r = this.canvas.getBoundingClientRect();
    const k = Math.max(this.transform.k, 0.6);
    select(this.canvas).call(this.zoomer.transform, zoomIdentity.translate(r.width / 2 - (p.x + p.w / 2) * k, r.height / 2 - (p.y + p.h / 2) * k).scale(k));
  }

  private selectIndex(i: number, redraw = true): void {
    this.selected = i;
    this.renderDetails(this.graph!.nodes[i]!);
    if (redraw) this.schedule();
  }

  private renderDetails(n: ProvenanceGraphNode): void {
    const d = this.details;
    d.replaceChildren();
    d.hidden = false;
    d.append(el('h2', {}, n.label), el('div', { class: 'muted' }, `${n.type === 'call' ? 'tool call' : n.kind} · ${n.id}`));
    const dl = el('dl');
    const row = (k: string, v: string) => dl.append(el('dt', {}, k), el('dd', {}, v));
    row('value', n.detail);
    row('verdict', n.verdict === 'not-judged' ? 'not judged' : n.verdict);
    const flags = [n.stale && 'stale', n.warned && 'warned', n.failed && 'failed'].filter(Boolean).join(', ');
    if (flags) row('flags', flags);
    if (n.job) row('job', n.job);
    if (n.file) row('file', n.file);
    d.append(dl);
    const actions = el('div', { class: 'actions' });
    const action = (label: string, m: GraphToHostMessage) => {
      const b = el('button', { type: 'button' }, label);
      b.addEventListener('click', () => this.host.postMessage(m));
      actions.append(b);
    };
    if (n.cell) action('Reveal cell', { type: 'reveal', id: n.id, target: 'cell' });
    if (n.file) action('Open file', { type: 'reveal', id: n.id, target: 'file' });
    if (n.job) action('Show job', { type: 'reveal', id: n.id, target: 'job' });
    if (n.type === 'artifact') action('Upstream only', { type: 'upstream', id: n.id });
    if (n.kind === 'qe-input') action('Edit as template', { type: 'edit-template', id: n.id });
    d.append(actions);
  }
}

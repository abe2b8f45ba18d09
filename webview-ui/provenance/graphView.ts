/**
 * The provenance panel's page: toolbar (scope, filters, fit), the canvas with pan and
 * zoom (d3-zoom), hit-testing (d3-quadtree), keyboard navigation along the edges, and a
 * details pane for the selected node. A graph is drawn as soon as its provisional layout
 * arrives and redrawn when the refined one replaces it (layout.ts).
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
import { drawGraph, filterMatches, LABEL_MIN_SCALE, type ViewTransform } from './draw';
import { GraphLayouter, type GraphLayout } from './layout';
import { themePalette, type Palette } from './palette';

/** Room left around a fitted graph. */
const FIT_PADDING_PX = 24;
/** How close to the canvas's edge a selected node may be and still count as in view: less than the fit's padding, so selecting a node of a fitted graph leaves the view as it is. */
const IN_VIEW_MARGIN_PX = FIT_PADDING_PX / 3;

/** Where the drawing lies on the canvas, in CSS pixels, with the canvas's size and the scale (and the scale labels show from). */
export interface DrawnBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
  canvasWidth: number;
  canvasHeight: number;
  scale: number;
  labelScale: number;
}

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
  private readonly announcer: HTMLElement;
  /** Edges by node index, both ways (laid-out and implied edges alike), for keyboard moves. */
  private outEdges: number[][] = [];
  private inEdges: number[][] = [];
  /** The user panned, zoomed or moved the selection since the graph was fitted. */
  private moved = false;
  /** Last full draw, for the responsiveness figure in bench:ui. */
  lastDrawMs = 0;

  constructor(
    root: HTMLElement,
    private readonly host: HostApi,
    workerScript: string | undefined,
  ) {
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
    this.canvas = el('canvas', {
      class: 'graph',
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'provenance graph',
      'aria-label':
        'Provenance graph. Arrow keys move the selection: Right to what was made from it, Left to what it was made from, Up and Down to the node above or below. Enter opens it; Escape clears the selection.',
    }) as HTMLCanvasElement;
    this.details = el('aside', { class: 'details', 'aria-label': 'Selected node', hidden: '' });
    this.announcer = el('div', { class: 'sr-only', 'aria-live': 'polite' });
    main.append(this.canvas, this.details, this.announcer);
    root.append(toolbar, main);
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.palette = themePalette();

    this.zoomer = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.01, 4])
      .on('zoom', (e: { transform: ViewTransform; sourceEvent?: unknown }) => {
        this.transform = { x: e.transform.x, y: e.transform.y, k: e.transform.k };
        if (e.sourceEvent) this.moved = true;
        this.schedule();
      });
    select(this.canvas).call(this.zoomer).on('dblclick.zoom', null);
    this.canvas.addEventListener('click', (ev) => this.onClick(ev));
    this.canvas.addEventListener('keydown', (ev) => this.onKey(ev));
    // Focus from the keyboard (Tab) starts at the first node; focus from a click leaves the
    // selection to the click.
    let pointing = false;
    this.canvas.addEventListener('pointerdown', () => (pointing = true), { capture: true });
    window.addEventListener('pointerup', () => setTimeout(() => (pointing = false), 0), { capture: true });
    this.canvas.addEventListener('focus', () => {
      if (!pointing && this.selected === undefined && this.graph?.nodes.length) this.moveTo(this.startNode());
    });
    this.layouter.warm();
    // the canvas, not its container: the details pane opening narrows the canvas alone
    new ResizeObserver(() => this.onCanvasResized()).observe(this.canvas);
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
    // A new graph is drawn from its provisional layout at once; a live update of the graph on
    // screen keeps the current drawing until its refined layout is ready.
    const quick = firstOfRun || !this.layout;
    let placedBefore = false;
    try {
      await this.layouter.layout(graph, { quick }, (layout) => {
        if (gen !== this.generation) return;
        const fitNow = firstOfRun && !placedBefore;
        this.place(graph, layout, {
          fit: fitNow || (layout.phase === 'refined' && firstOfRun && !this.moved),
          want: selectId ?? this.pendingSelect ?? previousSelection,
        });
        placedBefore = true;
      });
    } catch (e) {
      if (gen !== this.generation) return; // a newer graph arrived while this one was laid out
      const text = `Could not lay out the graph (${graph.nodes.length} nodes): ${(e as Error).message}. Reopen the panel; if it persists, report the run's events.jsonl.`;
      this.status.textContent = text;
      this.status.classList.add('error');
      this.host.postMessage({ type: 'error', text });
    }
  }

  /** Draw `graph` with `layout` (the provisional one, or the refined one replacing it). */
  private place(graph: ProvenanceGraph, layout: GraphLayout, opts: { fit: boolean; want: string | undefined }): void {
    // the same graph, newly laid out: the selection stays (and, unless the view is refitted, where it was on screen)
    const keptIndex = this.graph === graph ? this.selected : undefined;
    const keep = !opts.fit && keptIndex !== undefined ? this.screenOf(keptIndex) : undefined;
    this.graph = graph;
    this.layout = layout;
    this.tree = quadtree<number>()
      .x((i) => layout.nodes[i]!.x + layout.nodes[i]!.w / 2)
      .y((i) => layout.nodes[i]!.y + layout.nodes[i]!.h / 2)
      .addAll(graph.nodes.map((_, i) => i));
    const index = new Map(graph.nodes.map((n, i) => [n.id, i]));
    this.outEdges = graph.nodes.map(() => []);
    this.inEdges = graph.nodes.map(() => []);
    for (const e of graph.edges) {
      const a = index.get(e.from),
        b = index.get(e.to);
      if (a === undefined || b === undefined) continue;
      this.outEdges[a]!.push(b);
      this.inEdges[b]!.push(a);
    }
    this.matches = filterMatches(graph, this.filters);
    this.updateCounts();
    const t0 = performance.now();
    this.resize(false);
    if (opts.fit) {
      this.moved = false;
      this.fit(false);
    }
    if (keptIndex !== undefined) {
      if (keep) {
        const p = layout.nodes[keptIndex]!;
        select(this.canvas).call(
          this.zoomer.transform,
          zoomIdentity
            .translate(keep.x - (p.x + p.w / 2) * this.transform.k, keep.y - (p.y + p.h / 2) * this.transform.k)
            .scale(this.transform.k),
        );
      }
      this.selectIndex(keptIndex, false);
      if (opts.fit) this.ensureVisible(keptIndex);
    } else {
      this.selected = undefined;
      this.pendingSelect = undefined;
      if (opts.want) this.selectById(opts.want, false);
    }
    this.drawNow();
    const renderMs = performance.now() - t0;
    this.status.textContent = `${graph.nodes.length.toLocaleString()} nodes · ${graph.edges.length.toLocaleString()} edges${layout.phase === 'quick' ? ' · refining the layout…' : ''}`;
    this.host.postMessage({
      type: 'rendered',
      nodes: graph.nodes.length,
      edges: graph.edges.length,
      layoutMs: Math.round(layout.ms),
      renderMs: Math.round(renderMs * 10) / 10,
      layout: layout.where,
      phase: layout.phase,
    });
  }

  private screenOf(i: number): { x: number; y: number } | undefined {
    const p = this.layout?.nodes[i];
    if (!p) return undefined;
    return { x: (p.x + p.w / 2) * this.transform.k + this.transform.x, y: (p.y + p.h / 2) * this.transform.k + this.transform.y };
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

  /**
   * The canvas changed size: the details pane opened or closed, or the panel was resized. A view
   * the user has not panned or zoomed stays fitted, so the pane never hides part of the graph;
   * the selected node stays on screen either way.
   */
  private onCanvasResized(): void {
    this.resize(false);
    // a hidden panel has no size to fit to; it is fitted when it shows again
    const r = this.canvas.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return;
    if (this.layout && !this.moved) this.fit(false);
    if (this.layout && this.selected !== undefined) this.ensureVisible(this.selected);
    this.schedule();
  }

  /** Where the drawing lies on the canvas, and its scale (tests check that nothing is cut off and labels show). */
  get drawnBox(): DrawnBox | undefined {
    if (!this.layout) return undefined;
    const r = this.canvas.getBoundingClientRect();
    const { x, y, k } = this.transform;
    return {
      left: x,
      top: y,
      right: x + this.layout.width * k,
      bottom: y + this.layout.height * k,
      canvasWidth: r.width,
      canvasHeight: r.height,
      scale: k,
      labelScale: LABEL_MIN_SCALE,
    };
  }

  fit(redraw = true): void {
    if (!this.layout) return;
    // fitted again (the Fit button, too): the view follows the canvas's size until the user moves it
    this.moved = false;
    const r = this.canvas.getBoundingClientRect();
    const pad = FIT_PADDING_PX;
    const k = Math.min(
      2,
      Math.max(
        0.01,
        Math.min((r.width - 2 * pad) / Math.max(1, this.layout.width), (r.height - 2 * pad) / Math.max(1, this.layout.height)),
      ),
    );
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
    // The canvas may have changed size since the last resize event (the details pane opened):
    // a buffer of the old size would show the drawing squeezed next to stale pixels.
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.max(1, Math.round(r.width * dpr)) || this.canvas.height !== Math.max(1, Math.round(r.height * dpr)))
      this.resize(false);
    const state =
      this.selected === undefined
        ? { filters: this.filters, ...(this.matches ? { matches: this.matches } : {}) }
        : { filters: this.filters, selected: this.selected, ...(this.matches ? { matches: this.matches } : {}) };
    drawGraph(
      this.ctx,
      { width: r.width, height: r.height, dpr: window.devicePixelRatio || 1 },
      this.transform,
      this.graph,
      this.layout,
      state,
      this.palette,
    );
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
    select(this.canvas).call(
      this.zoomer.transform,
      zoomIdentity.translate(r.width / 2 - (p.x + p.w / 2) * k, r.height / 2 - (p.y + p.h / 2) * k).scale(k),
    );
  }

  /** Where keyboard navigation starts: the first source (a node nothing points to), top left. */
  private startNode(): number {
    const l = this.layout!;
    let best = 0;
    for (let i = 0; i < l.nodes.length; i++) {
      const a = l.nodes[i]!,
        b = l.nodes[best]!;
      if (this.inEdges[i]!.length === 0 && (this.inEdges[best]!.length > 0 || a.x < b.x || (a.x === b.x && a.y < b.y))) best = i;
    }
    return best;
  }

  /** Of `candidates`, the one nearest the selected node's height (then the leftmost). */
  private nearest(candidates: readonly number[], from: number): number | undefined {
    const l = this.layout!;
    const y = l.nodes[from]!.y;
    let best: number | undefined;
    for (const c of candidates) {
      if (best === undefined) best = c;
      else {
        const dc = Math.abs(l.nodes[c]!.y - y),
          db = Math.abs(l.nodes[best]!.y - y);
        if (dc < db || (dc === db && l.nodes[c]!.x < l.nodes[best]!.x)) best = c;
      }
    }
    return best;
  }

  /** The node directly above or below in the same layer (same column). */
  private neighbourInColumn(from: number, direction: 1 | -1): number | undefined {
    const l = this.layout!;
    const me = l.nodes[from]!;
    let best: number | undefined;
    for (let i = 0; i < l.nodes.length; i++) {
      const p = l.nodes[i]!;
      if (i === from || Math.abs(p.x - me.x) > 1 || (p.y - me.y) * direction <= 0) continue;
      if (best === undefined || Math.abs(p.y - me.y) < Math.abs(l.nodes[best]!.y - me.y)) best = i;
    }
    return best;
  }

  private onKey(ev: KeyboardEvent): void {
    if (!this.graph || !this.layout) return;
    const cur = this.selected;
    let next: number | undefined;
    switch (ev.key) {
      case 'ArrowRight':
        next = cur === undefined ? this.startNode() : this.nearest(this.outEdges[cur]!, cur);
        break;
      case 'ArrowLeft':
        next = cur === undefined ? this.startNode() : this.nearest(this.inEdges[cur]!, cur);
        break;
      case 'ArrowDown':
        next = cur === undefined ? this.startNode() : this.neighbourInColumn(cur, 1);
        break;
      case 'ArrowUp':
        next = cur === undefined ? this.startNode() : this.neighbourInColumn(cur, -1);
        break;
      case 'Home':
        next = this.startNode();
        break;
      case 'Enter': {
        if (cur === undefined) return;
        ev.preventDefault();
        const node = this.graph.nodes[cur]!;
        const target = defaultTarget(node);
        if (target) this.host.postMessage({ type: 'reveal', id: node.id, target });
        else this.announce(`${node.label} (${node.id}) has no cell, file or job to open.`);
        return;
      }
      case 'Escape':
        if (cur === undefined) return;
        ev.preventDefault();
        this.selected = undefined;
        this.details.hidden = true;
        this.schedule();
        return;
      default:
        return;
    }
    ev.preventDefault();
    if (next === undefined) {
      const where =
        ev.key === 'ArrowRight'
          ? 'nothing was made from it'
          : ev.key === 'ArrowLeft'
            ? 'it was made from nothing in this graph'
            : `no node ${ev.key === 'ArrowUp' ? 'above' : 'below'} it`;
      this.announce(`${this.graph.nodes[cur!]!.label}: ${where}.`);
      return;
    }
    this.moveTo(next);
  }

  /** Select a node from the keyboard: in view, described to a screen reader. */
  private moveTo(i: number): void {
    this.selectIndex(i, false);
    this.ensureVisible(i);
    const n = this.graph!.nodes[i]!;
    this.announce(
      `${n.type === 'call' ? 'tool call' : n.kind} ${n.label} (${n.id}): ${n.detail}; ${n.verdict === 'not-judged' ? 'not judged' : n.verdict}. ${this.outEdges[i]!.length} made from it, made from ${this.inEdges[i]!.length}.`,
    );
    this.schedule();
  }

  private ensureVisible(i: number): void {
    const s = this.screenOf(i);
    const r = this.canvas.getBoundingClientRect();
    const p = this.layout!.nodes[i]!;
    const margin = IN_VIEW_MARGIN_PX;
    const w = p.w * this.transform.k,
      h = p.h * this.transform.k;
    if (!s || (s.x - w / 2 >= margin && s.x + w / 2 <= r.width - margin && s.y - h / 2 >= margin && s.y + h / 2 <= r.height - margin))
      return;
    const k = Math.max(this.transform.k, LABEL_MIN_SCALE);
    select(this.canvas).call(
      this.zoomer.transform,
      zoomIdentity.translate(r.width / 2 - (p.x + p.w / 2) * k, r.height / 2 - (p.y + p.h / 2) * k).scale(k),
    );
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }

  /** The selected node's id (tests and bench:ui read it). */
  get selectedId(): string | undefined {
    return this.selected !== undefined ? this.graph?.nodes[this.selected]?.id : undefined;
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

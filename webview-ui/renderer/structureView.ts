/**
 * A structure card in the notebook: a 3-D view (3Dmol.js through ../structure3d, loaded when
 * the first structure comes into view) with repeat, cell, keyboard control and, for a relaxed
 * structure, its relaxation played step by step from the run's pw.x output (asked of the host).
 * Where WebGL is missing the card falls back to two projections drawn with d3: top (x–y, looking
 * down c) and side (x–z), atoms by element colour and covalent radius, the cell outline, fixed
 * atoms crossed, and the adsorption site starred. Far atoms are drawn first so near ones cover them.
 */
import { scaleLinear, select, symbol, symbolStar, type Selection } from 'd3';
import type { HostToRendererMessage, StructureData } from '../../src/shared/canvasOutputs';
import type { StructurePanel } from '../structure3d/panel';
import { elementOf as elementData, UNKNOWN_ELEMENT_COLOUR } from '../../src/shared/elements';
import { provenanceLinks, type Messaging } from './approvalCard';
import { formatNumber, h } from './dom';

// Jmol colour and covalent radius (Å) from the project's element table.
const elementOf = (s: string): [string, number] => {
  const e = elementData(s);
  return [e?.colour ?? UNKNOWN_ELEMENT_COLOUR, e?.covalentRadiusAngstrom ?? 1.2];
};

type Axis = 0 | 1 | 2;

function projection(
  parent: Selection<HTMLElement, unknown, null, undefined>,
  s: StructureData,
  title: string,
  ax: [Axis, Axis],
  depth: Axis,
  outline: [number, number][],
): void {
  const width = 260,
    pad = 14;
  // Bounds from the atoms (and the cell outline when given): a slab's vacuum would otherwise shrink the side view to a sliver.
  const xs = [...s.positions.map((p) => p[ax[0]]), ...outline.map((p) => p[0])];
  const ys = [...s.positions.map((p) => p[ax[1]]), ...outline.map((p) => p[1])];
  const maxR = Math.max(...s.symbols.map((e) => elementOf(e)[1]));
  const x0 = Math.min(...xs) - maxR,
    x1 = Math.max(...xs) + maxR,
    y0 = Math.min(...ys) - maxR,
    y1 = Math.max(...ys) + maxR;
  const scale = (width - 2 * pad) / Math.max(x1 - x0, 1e-6);
  const height = Math.min(360, Math.max(80, (y1 - y0) * scale + 2 * pad));
  const x = scaleLinear()
    .domain([x0, x1])
    .range([pad, width - pad]);
  const y = scaleLinear()
    .domain([y0, y0 + (height - 2 * pad) / scale])
    .range([height - pad, pad]);
  const fig = parent.append('figure').style('margin', '0');
  fig.append('figcaption').attr('class', 'muted').text(title);
  const svg = fig
    .append('svg')
    .attr('width', width)
    .attr('height', height)
    .attr('role', 'img')
    .attr('aria-label', `${title} of the structure`);
  if (outline.length) {
    svg
      .append('polygon')
      .attr('points', outline.map((p) => `${x(p[0])},${y(p[1])}`).join(' '))
      .attr('fill', 'none')
      .attr('stroke', 'var(--vscode-descriptionForeground)')
      .attr('stroke-dasharray', '4 3');
  }
  // Top view looks down: the highest atoms are nearest. Side view looks along +y: smallest y nearest.
  const near = (i: number) => (depth === 1 ? -s.positions[i]![1] : s.positions[i]![2]);
  const order = s.positions.map((_, i) => i).sort((a, b) => near(a) - near(b));
  const nears = order.map(near);
  const nearLo = Math.min(...nears),
    nearHi = Math.max(...nears);
  const atoms = svg.append('g');
  for (const i of order) {
    const p = s.positions[i]!;
    const [fill, r] = elementOf(s.symbols[i]!);
    const cx = x(p[ax[0]]),
      cy = y(p[ax[1]]);
    const radius = Math.max(2, r * scale * 0.55);
    // Deeper atoms are drawn darker so layers read apart.
    const shade = nearHi > nearLo ? 0.45 + 0.55 * ((near(i) - nearLo) / (nearHi - nearLo)) : 1;
    atoms.append('circle').attr('cx', cx).attr('cy', cy).attr('r', radius).attr('fill', '#000');
    const c = atoms
      .append('circle')
      .attr('cx', cx)
      .attr('cy', cy)
      .attr('r', radius)
      .attr('fill', fill)
      .attr('fill-opacity', shade)
      .attr('stroke', '#333')
      .attr('stroke-width', 0.8)
      .attr('data-atom', String(i));
    c.append('title').text(`${s.symbols[i]} ${i + 1}${s.fixed?.[i] ? ' (fixed)' : ''}: ${p.map((v) => formatNumber(v)).join(', ')} Å`);
    if (s.fixed?.[i]) {
      const d = radius * 0.55;
      atoms
        .append('path')
        .attr('d', `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx - d},${cy + d}L${cx + d},${cy - d}`)
        .attr('stroke', '#222')
        .attr('stroke-width', 1.2)
        .attr('class', 'fixed-mark');
    }
  }
  if (s.site) {
    const p = s.site.position;
    svg
      .append('path')
      .attr('d', symbol(symbolStar, 90)())
      .attr('transform', `translate(${x(p[ax[0]])},${y(p[ax[1]])})`)
      .attr('fill', 'var(--vscode-charts-orange)')
      .attr('stroke', '#222')
      .attr('class', 'site-mark')
      .append('title')
      .text(`${s.site.kind} site`);
  }
}

/** Replies to trajectory requests, by artifact id (index.ts routes host messages here). */
const trajectoryWaiters = new Map<string, ((m: Extract<HostToRendererMessage, { type: 'structure-trajectory' }>) => void)[]>();

export function onTrajectoryReply(m: Extract<HostToRendererMessage, { type: 'structure-trajectory' }>): void {
  const waiters = trajectoryWaiters.get(m.artifact) ?? [];
  trajectoryWaiters.delete(m.artifact);
  for (const w of waiters) w(m);
}

/** A page holds only a few WebGL contexts: at most this many live views; others wait until seen again. */
const MAX_LIVE_VIEWS = 6;
const live: { panel: StructurePanel; host: HTMLElement; restore: () => void }[] = [];
let panelModule: Promise<typeof import('../structure3d/panel')> | undefined;
let webgl: boolean | undefined;

function hasWebgl(): boolean {
  if (webgl === undefined) {
    try {
      const c = document.createElement('canvas');
      webgl = Boolean(c.getContext('webgl2') ?? c.getContext('webgl'));
    } catch {
      webgl = false;
    }
  }
  return webgl;
}

export function renderProjections(s: StructureData, parent: HTMLElement): void {
  const views = select(parent).append('div').attr('class', 'views');
  const [a, b] = s.cell;
  const top: [number, number][] = [
    [0, 0],
    [a[0], a[1]],
    [a[0] + b[0], a[1] + b[1]],
    [b[0], b[1]],
  ];
  projection(views as unknown as Selection<HTMLElement, unknown, null, undefined>, s, 'top (x–y)', [0, 1], 2, top);
  projection(views as unknown as Selection<HTMLElement, unknown, null, undefined>, s, 'side (x–z)', [0, 2], 1, []);
}

/** The 3-D view in `host`, made when it first comes into view and released when far out of view. */
function mount3d(s: StructureData, host: HTMLElement, messaging: Messaging, fallback: () => void): void {
  let entry: (typeof live)[number] | undefined;
  let frames = s.frames;
  const make = async () => {
    if (entry) return;
    let mod: typeof import('../structure3d/panel');
    try {
      mod = await (panelModule ??= import('../structure3d/panel'));
    } catch (e) {
      host.replaceChildren(h('div', { class: 'muted' }, `The 3-D view could not load (${(e as Error).message}); showing projections.`));
      fallback();
      return;
    }
    if (entry) return;
    host.replaceChildren();
    const panel = new mod.StructurePanel(
      host,
      {
        symbols: s.symbols,
        positions: s.positions,
        cell: s.cell,
        ...(s.pbc ? { pbc: s.pbc } : {}),
        ...(s.fixed ? { fixed: s.fixed } : {}),
        ...(s.labels ? { labels: s.labels } : {}),
        ...(frames ? { frames } : {}),
      } as never,
      { height: 340, onRendered: (info) => host.setAttribute('data-rendered', JSON.stringify(info)) },
    );
    entry = { panel, host, restore: () => undefined };
    live.push(entry);
    while (live.length > MAX_LIVE_VIEWS) {
      const old = live.shift()!;
      old.restore();
    }
    entry.restore = () => {
      panel.dispose();
      entry = undefined;
      host.replaceChildren(h('div', { class: 'muted' }, '3-D view released to save graphics memory; scroll to it again to show it.'));
    };
    if (s.trajectory && !frames && s.artifact && messaging.post) {
      const id = s.artifact;
      const list = trajectoryWaiters.get(id) ?? [];
      list.push((m) => {
        if (m.frames?.length) {
          frames = m.frames;
          entry?.panel.setFrames(m.frames);
        } else if (m.error) host.setAttribute('data-trajectory-error', m.error);
      });
      trajectoryWaiters.set(id, list);
      messaging.post({ type: 'structure-trajectory', artifact: id });
    }
  };
  if (typeof IntersectionObserver === 'undefined') {
    void make();
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!host.isConnected) {
        observer.disconnect();
        const i = live.findIndex((l) => l.host === host);
        if (i >= 0) live.splice(i, 1)[0]!.panel.dispose();
        return;
      }
      if (entries.some((e) => e.isIntersecting)) void make();
    },
    { rootMargin: '200px' },
  );
  observer.observe(host);
}

export function renderStructure(s: StructureData, element: HTMLElement, messaging: Messaging): void {
  const counts = new Map<string, number>();
  for (const e of s.symbols) counts.set(e, (counts.get(e) ?? 0) + 1);
  const formula = [...counts].map(([e, n]) => `${e}${n > 1 ? n : ''}`).join('');
  const card = h(
    'section',
    { class: 'dreams-card structure' },
    h(
      'h3',
      {},
      s.title ?? formula,
      ' ',
      h('span', { class: 'muted' }, `${s.symbols.length} atoms${s.spaceGroup ? ` · ${s.spaceGroup}` : ''}`),
    ),
  );
  const host = h('div', { class: 'structure3d-host' });
  card.append(host);
  const legend = h('div', { class: 'legend' });
  for (const e of counts.keys()) {
    const sw = h('span', { class: 'swatch' });
    sw.style.background = elementOf(e)[0];
    legend.append(h('span', {}, sw, ` ${e}`));
  }
  const nFixed = s.fixed?.filter(Boolean).length ?? 0;
  if (nFixed) legend.append(h('span', {}, `fixed: ${nFixed}`));
  if (s.site) legend.append(h('span', {}, `★ ${s.site.kind} site`));
  card.append(legend);
  if (s.artifact)
    card.append(h('div', { class: 'row' }, h('span', { class: 'muted' }, 'artifact'), provenanceLinks([s.artifact], messaging)));
  element.replaceChildren(card);
  // The adsorption site is drawn in the projections only: show them for a placed adsorbate too.
  if (!hasWebgl()) {
    host.append(h('div', { class: 'muted' }, 'No WebGL here: projections instead of the 3-D view.'));
    renderProjections(s, host);
    return;
  }
  mount3d(s, host, messaging, () => renderProjections(s, host));
  if (s.site) renderProjections(s, card);
}

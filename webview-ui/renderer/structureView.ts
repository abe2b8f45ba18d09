/**
 * A structure as two projections drawn with d3: top (x–y, looking down c) and side
 * (x–z), atoms by element colour and covalent radius, the cell outline, fixed atoms
 * crossed, and the adsorption site starred. Far atoms are drawn first so near ones cover them.
 * d3 rather than a 3D viewer: the two views a surface scientist checks, in a few kB.
 */
import { scaleLinear, select, symbol, symbolStar, type Selection } from 'd3';
import type { StructureData } from '../../src/shared/canvasOutputs';
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
  const width = 260, pad = 14;
  // Bounds from the atoms (and the cell outline when given): a slab's vacuum would otherwise shrink the side view to a sliver.
  const xs = [...s.positions.map((p) => p[ax[0]]), ...outline.map((p) => p[0])];
  const ys = [...s.positions.map((p) => p[ax[1]]), ...outline.map((p) => p[1])];
  const maxR = Math.max(...s.symbols.map((e) => elementOf(e)[1]));
  const x0 = Math.min(...xs) - maxR, x1 = Math.max(...xs) + maxR, y0 = Math.min(...ys) - maxR, y1 = Math.max(...ys) + maxR;
  const scale = (width - 2 * pad) / Math.max(x1 - x0, 1e-6);
  const height = Math.min(360, Math.max(80, (y1 - y0) * scale + 2 * pad));
  const x = scaleLinear().domain([x0, x1]).range([pad, width - pad]);
  const y = scaleLinear().domain([y0, y0 + (height - 2 * pad) / scale]).range([height - pad, pad]);
  const fig = parent.append('figure').style('margin', '0');
  fig.append('figcaption').attr('class', 'muted').text(title);
  const svg = fig.append('svg').attr('width', width).attr('height', height).attr('role', 'img').attr('aria-label', `${title} of the structure`);
  if (outline.length) {
    svg.append('polygon').attr('points', outline.map((p) => `${x(p[0])},${y(p[1])}`).join(' '))
      .attr('fill', 'none').attr('stroke', 'var(--vscode-descriptionForeground)').attr('stroke-dasharray', '4 3');
  }
  // Top view looks down: the highest atoms are nearest. Side view looks along +y: smallest y nearest.
  const near = (i: number) => (depth === 1 ? -s.positions[i]![1] : s.positions[i]![2]);
  const order = s.positions.map((_, i) => i).sort((a, b) => near(a) - near(b));
  const nears = order.map(near);
  const nearLo = Math.min(...nears), nearHi = Math.max(...nears);
  const atoms = svg.append('g');
  for (const i of order) {
    const p = s.positions[i]!;
    const [fill, r] = elementOf(s.symbols[i]!);
    const cx = x(p[ax[0]]), cy = y(p[ax[1]]);
    const radius = Math.max(2, r * scale * 0.55);
    // Deeper atoms are drawn darker so layers read apart.
    const shade = nearHi > nearLo ? 0.45 + 0.55 * ((near(i) - nearLo) / (nearHi - nearLo)) : 1;
    atoms.append('circle').attr('cx', cx).attr('cy', cy).attr('r', radius).attr('fill', '#000');
    const c = atoms.append('circle').attr('cx', cx).attr('cy', cy).attr('r', radius)
      .attr('fill', fill).attr('fill-opacity', shade).attr('stroke', '#333').attr('stroke-width', 0.8).attr('data-atom', String(i));
    c.append('title').text(`${s.symbols[i]} ${i + 1}${s.fixed?.[i] ? ' (fixed)' : ''}: ${p.map((v) => formatNumber(v)).join(', ')} Å`);
    if (s.fixed?.[i]) {
      const d = radius * 0.55;
      atoms.append('path').attr('d', `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx - d},${cy + d}L${cx + d},${cy - d}`)
        .attr('stroke', '#222').attr('stroke-width', 1.2).attr('class', 'fixed-mark');
    }
  }
  if (s.site) {
    const p = s.site.position;
    svg.append('path').attr('d', symbol(symbolStar, 90)()).attr('transform', `translate(${x(p[ax[0]])},${y(p[ax[1]])})`)
      .attr('fill', 'var(--vscode-charts-orange)').attr('stroke', '#222').attr('class', 'site-mark')
      .append('title').text(`${s.site.kind} site`);
  }
}

export function renderStructure(s: StructureData, element: HTMLElement, messaging: Messaging): void {
  const counts = new Map<string, number>();
  for (const e of s.symbols) counts.set(e, (counts.get(e) ?? 0) + 1);
  const formula = [...counts].map(([e, n]) => `${e}${n > 1 ? n : ''}`).join('');
  const card = h('section', { class: 'dreams-card structure' }, h('h3', {}, s.title ?? formula, ' ', h('span', { class: 'muted' }, `${s.symbols.length} atoms`)));
  const views = select(card).append('div').attr('class', 'views');
  const [a, b] = s.cell;
  const top: [number, number][] = [[0, 0], [a[0], a[1]], [a[0] + b[0], a[1] + b[1]], [b[0], b[1]]];
  projection(views as unknown as Selection<HTMLElement, unknown, null, undefined>, s, 'top (x–y)', [0, 1], 2, top);
  projection(views as unknown as Selection<HTMLElement, unknown, null, undefined>, s, 'side (x–z)', [0, 2], 1, []);
  const legend = h('div', { class: 'legend' });
  for (const e of counts.keys()) {
    const sw = h('span', { style: `display:inline-block;width:10px;height:10px;border-radius:50%;border:1px solid #333;background:${elementOf(e)[0]}` });
    legend.append(h('span', {}, sw, ` ${e}`));
  }
  const nFixed = s.fixed?.filter(Boolean).length ?? 0;
  if (nFixed) legend.append(h('span', {}, `× fixed (${nFixed})`));
  if (s.site) legend.append(h('span', {}, `★ ${s.site.kind} site`));
  card.append(legend);
  if (s.artifact) card.append(h('div', { class: 'row' }, h('span', { class: 'muted' }, 'artifact'), provenanceLinks([s.artifact], messaging)));
  element.replaceChildren(card);
}

/** EOS, convergence, electronic-structure and relaxation plots as SVG with d3 (scales, axes, line); the magnetization table. */
import { axisBottom, axisLeft, extent, line, scaleLinear, select } from 'd3';
import type { PlotData } from '../../src/shared/canvasOutputs';
import { provenanceLinks, type Messaging } from './approvalCard';
import { formatNumber, h } from './dom';
import { dosAxisLabel, dosZero, drawBandStructure, drawDos, zeroFact } from './electronicPlots';
import { withUnit } from './quantities';
import { drawRelaxation, magnetizationTable, PANEL_GAP } from './everydayPlots';
import { CONVERGENCE_PANEL_GAP, convergencePanelsOf, drawConvergence } from './convergencePlot';

const W = 520,
  H = 300,
  M = { top: 16, right: 20, bottom: 44, left: 72 };

export function renderPlot(p: PlotData, element: HTMLElement, messaging: Messaging): void {
  const card = h('section', { class: 'dreams-card plot', 'data-plot': p.kind }, h('h3', {}, p.title));
  const links = () =>
    p.artifact && card.append(h('div', { class: 'row' }, h('span', { class: 'muted' }, 'data'), provenanceLinks([p.artifact], messaging)));
  if (p.kind === 'magnetization') {
    const facts = [`order: ${p.data.order}`];
    if (p.data.siteSource)
      facts.push(`site moments from ${p.data.siteSource === 'löwdin' ? 'projwfc.x (Löwdin)' : 'pw.x (spheres around each atom)'}`);
    card.append(magnetizationTable(p.data), h('div', { class: 'legend' }, ...facts.map((f) => h('span', {}, f))));
    links();
    element.replaceChildren(card);
    return;
  }
  const convergence = p.kind === 'convergence' ? convergencePanelsOf(p) : [];
  const panels = p.kind === 'relaxation' ? 2 : Math.max(1, convergence.length);
  const gap = p.kind === 'convergence' ? CONVERGENCE_PANEL_GAP : PANEL_GAP;
  const height = panels * H - (panels - 1) * (M.top + M.bottom - gap);
  const svg = select(card).append('svg').attr('width', W).attr('height', height).attr('role', 'img').attr('aria-label', p.title);
  const g = svg.append('g').attr('transform', `translate(${M.left},${M.top})`);
  const iw = W - M.left - M.right,
    ih = H - M.top - M.bottom;
  const axisLabels = (xl: string, yl: string) => {
    svg
      .append('text')
      .attr('x', M.left + iw / 2)
      .attr('y', H - 6)
      .attr('text-anchor', 'middle')
      .text(xl);
    svg
      .append('text')
      .attr('transform', `translate(14,${M.top + ih / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .text(yl);
  };
  const colour = 'var(--vscode-charts-blue)';
  const accent = 'var(--vscode-charts-orange)';

  if (p.kind === 'relaxation') {
    const lower = svg.append('g').attr('transform', `translate(${M.left},${M.top + ih + PANEL_GAP})`);
    const facts = drawRelaxation(g, lower, p.data, p.finalEnergyEv, iw, ih);
    svg
      .append('text')
      .attr('x', M.left + iw / 2)
      .attr('y', height - 6)
      .attr('text-anchor', 'middle')
      .text('geometry (ionic step)');
    card.append(h('div', { class: 'legend' }, ...facts.map((f) => h('span', {}, f))));
  } else if (p.kind === 'band-structure') {
    const facts = drawBandStructure(g, p.data, iw, ih);
    axisLabels('', p.data.reference.kind === 'vbm' ? 'E − E_VBM (eV)' : 'E − E_F (eV)');
    card.append(h('div', { class: 'legend' }, ...facts.map((f) => h('span', {}, f))));
  } else if (p.kind === 'dos') {
    const { note } = drawDos(g, p.data, iw, ih);
    axisLabels(dosAxisLabel(p.data), 'DOS (states/eV per cell)');
    const zero = dosZero(p.data);
    const facts = [
      ...(zero ? [zeroFact(zero)] : []),
      ...(note ? [note] : []),
      ...(p.data.fermiEnergyEv !== undefined && zero?.kind !== 'fermi' ? [`E_F = ${withUnit(p.data.fermiEnergyEv, 'eV')}`] : []),
    ];
    if (facts.length) card.append(h('div', { class: 'legend' }, ...facts.map((f) => h('span', {}, f))));
  } else if (p.kind === 'eos') {
    const vs = [...p.points.map((q) => q.volumeA3), ...(p.fit?.curve.map((q) => q.volumeA3) ?? [])];
    const es = [...p.points.map((q) => q.energyEv), ...(p.fit?.curve.map((q) => q.energyEv) ?? [])];
    const [v0, v1] = extent(vs) as [number, number];
    const [e0, e1] = extent(es) as [number, number];
    const padE = (e1 - e0) * 0.08 || 0.01;
    const x = scaleLinear().domain([v0, v1]).nice().range([0, iw]);
    const y = scaleLinear()
      .domain([e0 - padE, e1 + padE])
      .nice()
      .range([ih, 0]);
    g.append('g').attr('class', 'axis').attr('transform', `translate(0,${ih})`).call(axisBottom(x).ticks(6));
    g.append('g').attr('class', 'axis').call(axisLeft(y).ticks(6));
    if (p.fit?.curve.length) {
      g.append('path')
        .attr('fill', 'none')
        .attr('stroke', accent)
        .attr('stroke-width', 1.5)
        .attr(
          'd',
          line<{ volumeA3: number; energyEv: number }>()
            .x((q) => x(q.volumeA3))
            .y((q) => y(q.energyEv))(p.fit.curve),
        );
    }
    g.selectAll('circle')
      .data(p.points)
      .join('circle')
      .attr('r', 4)
      .attr('fill', colour)
      .attr('cx', (q) => x(q.volumeA3))
      .attr('cy', (q) => y(q.energyEv))
      .append('title')
      .text((q) => `V = ${formatNumber(q.volumeA3)} Å³, E = ${formatNumber(q.energyEv)} eV`);
    if (p.fit?.v0A3 !== undefined) {
      g.append('line')
        .attr('x1', x(p.fit.v0A3))
        .attr('x2', x(p.fit.v0A3))
        .attr('y1', 0)
        .attr('y2', ih)
        .attr('stroke', accent)
        .attr('stroke-dasharray', '4 3');
    }
    axisLabels('volume (Å³)', 'total energy (eV)');
    const facts: string[] = [];
    if (p.fit?.form) facts.push(p.fit.form);
    if (p.fit?.v0A3 !== undefined) facts.push(`V₀ = ${formatNumber(p.fit.v0A3)} Å³`);
    if (p.fit?.b0GPa !== undefined) facts.push(`B₀ = ${formatNumber(p.fit.b0GPa)} GPa`);
    if (p.fit?.e0Ev !== undefined) facts.push(`E₀ = ${formatNumber(p.fit.e0Ev)} eV`);
    if (facts.length) card.append(h('div', { class: 'legend' }, ...facts.map((f) => h('span', {}, f))));
  } else {
    const groups = convergence.map((_, i) =>
      i === 0 ? g : svg.append('g').attr('transform', `translate(${M.left},${M.top + i * (ih + CONVERGENCE_PANEL_GAP)})`),
    );
    const facts = drawConvergence(groups, p, convergence, iw, ih);
    svg
      .append('text')
      .attr('x', M.left + iw / 2)
      .attr('y', height - 6)
      .attr('text-anchor', 'middle')
      .text(`${p.parameter} (${p.unit})`);
    card.append(h('div', { class: 'legend' }, ...facts.map((f) => h('span', {}, f))));
  }
  links();
  element.replaceChildren(card);
}

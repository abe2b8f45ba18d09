/**
 * The relaxation trajectory and the magnetization table for the notebook, drawn from the
 * relaxation and magnetization artifacts' own values (src/shared/relaxationAndMagnetism.ts) as the
 * run report draws them (src/core/report/sections/everyday.ts), so the numbers agree: two panels
 * with d3, E − E_final in meV and the largest force in eV/Å per geometry with the force threshold
 * shaded and drawn as a line; a table of the site moments with the total and absolute moment per
 * cell, moments to three significant digits (quantities.ts). SVG attributes only: the CSP allows no inline style.
 */
import { axisBottom, axisLeft, extent, line, scaleLinear, type Selection } from 'd3';
import type { MagnetizationTableData, RelaxationTrajectoryPlotData } from '../../src/shared/relaxationAndMagnetism';
import { formatNumber, h } from './dom';
import { formatQuantity } from './quantities';

type G = Selection<SVGGElement, unknown, null, undefined>;
interface Point {
  step: number;
  y: number;
  finalScf?: boolean;
}

/** Gap between the two panels, px (room for the upper panel's x axis). */
export const PANEL_GAP = 40;

/** Draws the energy panel into `top` and the force panel into `bottom` (each iw × ih); returns the facts for the legend. */
export function drawRelaxation(
  top: G,
  bottom: G,
  d: RelaxationTrajectoryPlotData,
  finalEnergyEv: number,
  iw: number,
  ih: number,
): string[] {
  const energy: Point[] = d.steps
    .filter((s) => s.energyEv !== undefined)
    .map((s) => ({ step: s.step, y: (s.energyEv! - finalEnergyEv) * 1000, finalScf: s.finalScf }));
  const force: Point[] = d.steps
    .filter((s) => s.maxForceEvPerAngstrom !== undefined)
    .map((s) => ({ step: s.step, y: s.maxForceEvPerAngstrom!, finalScf: s.finalScf }));
  const steps = d.steps.map((s) => s.step);
  const [s0, s1] = extent(steps.length ? steps : [0, 1]) as [number, number];
  const x = scaleLinear()
    .domain(s0 === s1 ? [s0 - 1, s1 + 1] : [s0, s1])
    .range([0, iw]);
  const threshold = d.thresholds.forceEvPerAngstrom;
  const panel = (g: G, points: Point[], extra: number[], colour: string, cls: string, label: string, unit: string) => {
    const ys = [...points.map((p) => p.y), ...extra];
    const [lo, hi] = extent(ys.length ? ys : [0, 1]) as [number, number];
    const pad = (hi - lo) * 0.08 || Math.abs(hi) * 0.1 || 1;
    const y = scaleLinear()
      .domain([lo >= 0 ? 0 : lo - pad, hi + pad])
      .nice()
      .range([ih, 0]);
    g.append('g')
      .attr('class', 'axis')
      .attr('transform', `translate(0,${ih})`)
      .call(axisBottom(x).ticks(Math.min(8, steps.length || 1), 'd'));
    g.append('g').attr('class', 'axis').call(axisLeft(y).ticks(5));
    g.append('path')
      .attr('class', cls)
      .attr('fill', 'none')
      .attr('stroke', colour)
      .attr('stroke-width', 1.5)
      .attr(
        'd',
        line<Point>()
          .x((p) => x(p.step))
          .y((p) => y(p.y))(points),
      );
    g.selectAll('circle')
      .data(points)
      .join('circle')
      .attr('class', `${cls}-point`)
      .attr('r', 3.5)
      .attr('fill', colour)
      .attr('cx', (p) => x(p.step))
      .attr('cy', (p) => y(p.y))
      .append('title')
      .text((p) => `geometry ${p.step}${p.finalScf ? ' (final SCF)' : ''}: ${label} ${formatNumber(p.y)} ${unit}`);
    g.append('text').attr('x', 4).attr('y', -4).text(`${label} (${unit})`);
    return y;
  };
  panel(top, energy, [0], 'var(--vscode-charts-blue, #1565c0)', 'relax-energy', 'E − E_final', 'meV');
  const y = panel(
    bottom,
    force,
    threshold !== undefined ? [0, threshold] : [0],
    'var(--vscode-charts-red, #c62828)',
    'relax-force',
    'max |F|',
    'eV/Å',
  );
  if (threshold !== undefined) {
    bottom
      .insert('rect', ':first-child')
      .attr('class', 'force-threshold-band')
      .attr('x', 0)
      .attr('width', iw)
      .attr('y', y(threshold))
      .attr('height', Math.max(0, y(0) - y(threshold)))
      .attr('fill', 'var(--vscode-charts-green, #2e7d32)')
      .attr('fill-opacity', 0.12);
    bottom
      .append('line')
      .attr('class', 'force-threshold')
      .attr('x1', 0)
      .attr('x2', iw)
      .attr('y1', y(threshold))
      .attr('y2', y(threshold))
      .attr('stroke', 'var(--vscode-charts-green, #2e7d32)')
      .attr('stroke-dasharray', '5 4');
    // at the left: a converging relaxation ends on the threshold, at the right
    bottom
      .append('text')
      .attr('x', 4)
      .attr('y', y(threshold) - 4)
      .attr('text-anchor', 'start')
      .text(`forc_conv_thr ${formatQuantity(threshold, 'eV/Å')} eV/Å`);
  }
  const facts = [
    d.converged ? 'converged' : 'not converged',
    `${d.steps.length} geometr${d.steps.length === 1 ? 'y' : 'ies'}`,
    `E_final = ${formatQuantity(finalEnergyEv, 'eV', true)} eV`,
  ];
  const lastForce = force.at(-1);
  if (lastForce) facts.push(`last max |F| = ${formatQuantity(lastForce.y, 'eV/Å')} eV/Å`);
  if (d.thresholds.pressureKbar !== undefined) facts.push(`press_conv_thr ${formatQuantity(d.thresholds.pressureKbar, 'kbar')} kbar`);
  if (d.calculation === 'vc-relax' && d.steps.at(-1)?.finalScf) facts.push('last geometry: final SCF at the relaxed cell');
  return facts;
}

/** The magnetization table: one row per site, then the total and absolute moment per cell. */
export function magnetizationTable(d: MagnetizationTableData): HTMLTableElement {
  const hasCharge = d.sites.some((s) => s.charge !== undefined);
  const head = h(
    'tr',
    {},
    h('th', {}, 'atom'),
    h('th', {}, 'species'),
    h('th', {}, 'moment (μB)'),
    ...(hasCharge ? [h('th', {}, 'charge (e)')] : []),
  );
  const rows = d.sites.map((s) =>
    h(
      'tr',
      { class: 'site' },
      h('td', {}, String(s.atom)),
      h('td', {}, s.label && s.label !== s.symbol ? `${s.label} (${s.symbol})` : s.symbol),
      h('td', {}, formatQuantity(s.momentBohrMagneton, 'μB')),
      ...(hasCharge ? [h('td', {}, s.charge !== undefined ? formatQuantity(s.charge, 'e') : '—')] : []),
    ),
  );
  const span = String(hasCharge ? 2 : 1);
  const summary = (cls: string, label: string, value: number, unit: string) =>
    h('tr', { class: cls }, h('th', { colspan: '2' }, label), h('td', { colspan: span }, `${formatQuantity(value, unit)} ${unit}`));
  return h(
    'table',
    { class: 'magnetization' },
    h('thead', {}, head),
    h('tbody', {}, ...rows),
    h(
      'tfoot',
      {},
      summary('total', 'total magnetization', d.totalBohrMagnetonPerCell, 'μB/cell'),
      summary('absolute', 'absolute magnetization', d.absoluteBohrMagnetonPerCell, 'μB/cell'),
      summary('per-atom', 'total per atom', d.totalBohrMagnetonPerAtom, 'μB/atom'),
    ),
  );
}

/**
 * A convergence sweep in the notebook: one panel per quantity the sweep was judged by (the energy, the
 * lattice shift, the shape, the moment, the gap, the forces; core/report/convergencePanels.ts), each its
 * change against the finest run per tested value on a log axis in its own unit, the tolerance shaded
 * and drawn as a line, the chosen value as a vertical line. A change of zero (the finest run itself, or
 * a value equal to it as pw.x printed it) cannot sit on a log axis: it is drawn hollow on the floor.
 * Outputs written before the panels existed carry only the energy (`points`) and draw as one panel.
 * SVG attributes only: the CSP allows no inline style.
 */
import { axisBottom, axisLeft, extent, line, scaleLinear, scaleLog, type Selection } from 'd3';
import type { ConvergencePanelData, PlotData } from '../../src/shared/canvasOutputs';
import { formatNumber } from './dom';

type G = Selection<SVGGElement, unknown, null, undefined>;
type ConvergencePlot = Extract<PlotData, { kind: 'convergence' }>;

/** Gap between two panels, px (room for the upper panel's x axis and the lower one's label). */
export const CONVERGENCE_PANEL_GAP = 44;

const COLOUR: Record<string, string> = {
  energy: 'var(--vscode-charts-blue, #1565c0)',
  lattice: 'var(--vscode-charts-purple, #6a1b9a)',
  shape: 'var(--vscode-charts-purple, #00838f)',
  moment: 'var(--vscode-charts-orange, #ef6c00)',
  gap: 'var(--vscode-charts-green, #2e7d32)',
  force: 'var(--vscode-charts-red, #c62828)',
};

/** The panels of a plot output: its own, or the energy of an output written before panels existed. */
export function convergencePanelsOf(p: ConvergencePlot): ConvergencePanelData[] {
  if (p.panels?.length) return p.panels;
  return [
    {
      quantity: 'energy',
      label: '|ΔE| vs finest',
      unit: 'meV/atom',
      points: p.points.map((q) => ({ x: q.x, y: q.deltaMeVPerAtom })),
      ...(p.thresholdMeVPerAtom !== undefined ? { tolerance: p.thresholdMeVPerAtom } : {}),
    },
  ];
}

/** Draws `panels` into `gs` (one group each, iw × ih, sharing the x axis of the tested values); returns the legend's facts. */
export function drawConvergence(gs: G[], p: ConvergencePlot, panels: ConvergencePanelData[], iw: number, ih: number): string[] {
  const xs = panels.flatMap((q) => q.points.map((pt) => pt.x));
  const [x0, x1] = extent(xs.length ? xs : [0, 1]) as [number, number];
  const x = scaleLinear()
    .domain(x0 === x1 ? [x0 - 1, x1 + 1] : [x0, x1])
    .nice()
    .range([0, iw]);
  let zeros = false;
  panels.forEach((panel, i) => {
    const g = gs[i]!;
    const colour = COLOUR[panel.quantity] ?? COLOUR.energy!;
    g.attr('class', 'convergence-panel').attr('data-quantity', panel.quantity);
    const positive = panel.points.map((q) => q.y).filter((y) => y > 0);
    const ys = [...positive, ...(panel.tolerance !== undefined && panel.tolerance > 0 ? [panel.tolerance] : [])];
    const [lo, hi] = extent(ys.length ? ys : [0.01, 1]) as [number, number];
    const y = scaleLog()
      .domain([lo / 3, hi * 3])
      .range([ih, 0])
      .clamp(true);
    const yOf = (v: number) => (v > 0 ? y(v) : ih);
    g.append('g').attr('class', 'axis').attr('transform', `translate(0,${ih})`).call(axisBottom(x).ticks(6));
    g.append('g').attr('class', 'axis').call(axisLeft(y).ticks(4, '~g'));
    if (panel.tolerance !== undefined && panel.tolerance > 0) {
      const ty = y(panel.tolerance);
      g.append('rect')
        .attr('class', 'convergence-tolerance-band')
        .attr('x', 0)
        .attr('width', iw)
        .attr('y', ty)
        .attr('height', Math.max(0, ih - ty))
        .attr('fill', 'var(--vscode-charts-green, #2e7d32)')
        .attr('fill-opacity', 0.12);
      g.append('line')
        .attr('class', 'convergence-tolerance')
        .attr('x1', 0)
        .attr('x2', iw)
        .attr('y1', ty)
        .attr('y2', ty)
        .attr('stroke', 'var(--vscode-charts-green, #2e7d32)')
        .attr('stroke-dasharray', '5 4');
      g.append('text')
        .attr('class', 'convergence-tolerance-label')
        .attr('x', iw - 4)
        .attr('y', ty - 4)
        .attr('text-anchor', 'end')
        .text(`tolerance ${formatNumber(panel.tolerance)} ${panel.unit}`);
    }
    if (p.chosen !== undefined) {
      g.append('line')
        .attr('class', 'convergence-chosen')
        .attr('x1', x(p.chosen))
        .attr('x2', x(p.chosen))
        .attr('y1', 0)
        .attr('y2', ih)
        .attr('stroke', 'var(--vscode-charts-green, #2e7d32)')
        .attr('stroke-width', 2);
      if (i === 0)
        g.append('text')
          .attr('x', x(p.chosen) + 4)
          .attr('y', 12)
          .text(`chosen ${formatNumber(p.chosen)} ${p.unit}${p.notConverged ? ' (not converged)' : ''}`);
    }
    g.append('path')
      .attr('class', 'convergence-line')
      .attr('fill', 'none')
      .attr('stroke', colour)
      .attr('stroke-width', 1.5)
      .attr(
        'd',
        line<{ x: number; y: number }>()
          .x((q) => x(q.x))
          .y((q) => yOf(q.y))(panel.points),
      );
    g.selectAll('circle')
      .data(panel.points)
      .join('circle')
      .attr('class', (q) => `convergence-point${q.y > 0 ? '' : ' at-zero'}`)
      .attr('r', 4)
      .attr('fill', (q) => (q.y > 0 ? colour : 'none'))
      .attr('stroke', colour)
      .attr('stroke-width', 1.5)
      .attr('cx', (q) => x(q.x))
      .attr('cy', (q) => yOf(q.y))
      .append('title')
      .text((q) => `${p.parameter} = ${formatNumber(q.x)} ${p.unit}: ${panel.label} ${formatNumber(q.y)} ${panel.unit}`);
    zeros ||= panel.points.some((q) => !(q.y > 0));
    g.append('text').attr('class', 'convergence-panel-label').attr('x', 4).attr('y', -4).text(`${panel.label} (${panel.unit})`);
  });
  const facts = [
    `judged by ${panels.map((q) => `${q.quantity}${q.tolerance !== undefined ? ` within ${formatNumber(q.tolerance)} ${q.unit}` : ''}`).join(' and ')}`,
  ];
  if (zeros) facts.push('hollow: no change from the finest run as printed (drawn on the floor of the log axis)');
  return facts;
}

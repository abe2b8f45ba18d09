/**
 * Band-structure and DOS plots with d3 for the notebook: the bands (E − E_ref) over the path with
 * the labelled points and the band edges, and the total DOS with the PDOS per species and l
 * (E − E_F). The data are the band_structure, dos and pdos artifacts' own values
 * (src/shared/electronicStructure.ts).
 */
import { axisBottom, axisLeft, extent, line, scaleLinear, type Selection } from 'd3';
import type { BandStructurePlotData, DosPlotData } from '../../src/shared/electronicStructure';
import { formatNumber } from './dom';

type G = Selection<SVGGElement, unknown, null, undefined>;
const PALETTE = [
  'var(--vscode-charts-red, #c62828)',
  'var(--vscode-charts-green, #2e7d32)',
  'var(--vscode-charts-purple, #6a1b9a)',
  'var(--vscode-charts-orange, #ef6c00)',
  'var(--vscode-charts-yellow, #f9a825)',
];

/** Draws the bands into `g` (inner size iw × ih); returns the facts line for the legend. */
export function drawBandStructure(g: G, d: BandStructurePlotData, iw: number, ih: number, window: [number, number] = [-12, 8]): string[] {
  const ref = d.reference.energyEv;
  const x = scaleLinear()
    .domain(extent(d.x) as [number, number])
    .range([0, iw]);
  const y = scaleLinear().domain(window).range([ih, 0]);
  g.append('clipPath').attr('id', 'bands-clip').append('rect').attr('width', iw).attr('height', ih);
  g.append('g').attr('class', 'axis').call(axisLeft(y).ticks(6));
  const ticks = g.append('g').attr('class', 'axis').attr('transform', `translate(0,${ih})`);
  for (const t of d.ticks) {
    g.append('line')
      .attr('x1', x(t.x))
      .attr('x2', x(t.x))
      .attr('y1', 0)
      .attr('y2', ih)
      .attr('stroke', 'var(--vscode-editorRuler-foreground, #999)')
      .attr('stroke-width', t.label.includes('|') ? 1.5 : 0.7);
    ticks.append('text').attr('x', x(t.x)).attr('y', 16).attr('text-anchor', 'middle').attr('fill', 'currentColor').text(t.label);
  }
  g.append('line')
    .attr('x1', 0)
    .attr('x2', iw)
    .attr('y1', y(0))
    .attr('y2', y(0))
    .attr('stroke', 'var(--vscode-charts-blue, #1565c0)')
    .attr('stroke-dasharray', '5 4');
  const plot = g.append('g').attr('clip-path', 'url(#bands-clip)');
  // a break in the path (two k-points at one x, "K|U") ends one stroke and starts the next
  const runs: number[][] = [[]];
  d.x.forEach((xk, k) => {
    if (k > 0 && xk === d.x[k - 1]) runs.push([]);
    runs.at(-1)!.push(k);
  });
  const stroke = line<number>()
    .x((k) => x(d.x[k]!))
    .y(() => 0);
  for (const band of d.bandsEv) {
    const path = runs.map((run) => stroke.y((k) => y(band[k]! - ref))(run) ?? '').join(' ');
    plot.append('path').attr('class', 'band').attr('fill', 'none').attr('stroke', 'currentColor').attr('stroke-width', 1.1).attr('d', path);
  }
  const facts = [`zero at the ${d.reference.kind === 'vbm' ? 'valence-band maximum' : 'Fermi level'} (${formatNumber(ref)} eV)`];
  if (d.gap) {
    for (const [edge, colour, name] of [
      [d.gap.vbm, 'var(--vscode-charts-red, #c62828)', 'VBM'],
      [d.gap.cbm, 'var(--vscode-charts-green, #2e7d32)', 'CBM'],
    ] as const) {
      g.append('circle')
        .attr('r', 4.5)
        .attr('fill', colour)
        .attr('cx', x(edge.x))
        .attr('cy', y(edge.energyEv - ref))
        .append('title')
        .text(`${name} ${formatNumber(edge.energyEv)} eV`);
    }
    facts.push(`${d.gap.direct ? 'direct' : 'indirect'} gap ${formatNumber(d.gap.gapEv)} eV`);
  }
  return facts;
}

/** Draws the DOS into `g`, its legend inside; returns the legend entries. */
export function drawDos(g: G, d: DosPlotData, iw: number, ih: number): { label: string; colour: string }[] {
  const ef = d.fermiEnergyEv ?? 0;
  const es = d.energiesEv.map((e) => e - ef);
  const top = Math.max(...d.total, ...(d.projections ?? []).flatMap((p) => p.dos));
  const x = scaleLinear()
    .domain(extent(es) as [number, number])
    .range([0, iw]);
  const y = scaleLinear()
    .domain([0, top * 1.05 || 1])
    .nice()
    .range([ih, 0]);
  g.append('g').attr('class', 'axis').attr('transform', `translate(0,${ih})`).call(axisBottom(x).ticks(6));
  g.append('g').attr('class', 'axis').call(axisLeft(y).ticks(5));
  const curve = (values: number[], colour: string) =>
    g
      .append('path')
      .attr('class', 'dos-curve')
      .attr('fill', 'none')
      .attr('stroke', colour)
      .attr('stroke-width', 1.3)
      .attr(
        'd',
        line<number>()
          .x((_, i) => x(es[i]!))
          .y((v) => y(v))(values),
      );
  const legend = [{ label: 'total', colour: 'currentColor' }];
  curve(d.total, 'currentColor');
  (d.projections ?? []).forEach((p, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    curve(p.dos, colour);
    legend.push({ label: `PDOS ${p.label}`, colour });
  });
  // legend inside the plot, top right (SVG attributes only: the webview's CSP allows no inline style)
  legend.forEach((e, i) =>
    g
      .append('text')
      .attr('x', iw - 4)
      .attr('y', 12 + 14 * i)
      .attr('text-anchor', 'end')
      .attr('fill', e.colour)
      .text(e.label),
  );
  if (d.fermiEnergyEv !== undefined)
    g.append('line')
      .attr('x1', x(0))
      .attr('x2', x(0))
      .attr('y1', 0)
      .attr('y2', ih)
      .attr('stroke', 'var(--vscode-charts-blue, #1565c0)')
      .attr('stroke-dasharray', '4 3');
  return legend;
}

/**
 * Band-structure and DOS plots with d3 for the notebook: the bands (E − E_ref) over the path with
 * the labelled points and the band edges, and the total DOS with the PDOS per species and l
 * against the same zero (an insulator's valence-band maximum, a metal's Fermi energy; E − E_F for
 * artifacts that predate the zero). The data are the band_structure, dos and pdos artifacts' own
 * values (src/shared/electronicStructure.ts).
 */
import { axisBottom, axisLeft, extent, line, scaleLinear, type Selection } from 'd3';
import {
  type BandStructurePlotData,
  type DosPlotData,
  dosEnergyAxis,
  ENERGY_WINDOW_EV,
  type EnergyZero,
} from '../../src/shared/electronicStructure';
import { withUnit } from './quantities';

type G = Selection<SVGGElement, unknown, null, undefined>;
/** Band and DOS plots drawn in this document so far: every output of a notebook shares one document, so each clip rectangle needs an id of its own. */
let bandPlots = 0;
let dosPlots = 0;
const PALETTE = [
  'var(--vscode-charts-red, #c62828)',
  'var(--vscode-charts-green, #2e7d32)',
  'var(--vscode-charts-purple, #6a1b9a)',
  'var(--vscode-charts-orange, #ef6c00)',
  'var(--vscode-charts-yellow, #f9a825)',
];
/** The two spin channels of a spin-polarised run: majority (up) and minority (down, dashed). */
const SPIN = { up: 'var(--vscode-charts-blue, #1565c0)', down: 'var(--vscode-charts-red, #c62828)' } as const;

/** A legend inside the plot, top right, one coloured line per entry (SVG attributes only: the webview's CSP allows no inline style). */
function legendInside(g: G, entries: { label: string; colour: string }[], iw: number): void {
  entries.forEach((e, i) =>
    g
      .append('text')
      .attr('class', 'plot-legend')
      .attr('x', iw - 4)
      .attr('y', 12 + 14 * i)
      .attr('text-anchor', 'end')
      .attr('fill', e.colour)
      .text(e.label),
  );
}

/** Draws the bands into `g` (inner size iw × ih); returns the facts line for the legend. */
export function drawBandStructure(
  g: G,
  d: BandStructurePlotData,
  iw: number,
  ih: number,
  window: readonly [number, number] = ENERGY_WINDOW_EV,
): string[] {
  const ref = d.reference.energyEv;
  const x = scaleLinear()
    .domain(extent(d.x) as [number, number])
    .range([0, iw]);
  const y = scaleLinear().domain([window[0], window[1]]).range([ih, 0]);
  const clipId = `dreams-bands-clip-${++bandPlots}`;
  g.append('clipPath').attr('id', clipId).append('rect').attr('width', iw).attr('height', ih);
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
    .attr('stroke', d.bandsDownEv ? 'var(--vscode-editorRuler-foreground, #999)' : 'var(--vscode-charts-blue, #1565c0)')
    .attr('stroke-dasharray', '5 4');
  const plot = g.append('g').attr('clip-path', `url(#${clipId})`);
  // a break in the path (two k-points at one x, "K|U") ends one stroke and starts the next
  const runs: number[][] = [[]];
  d.x.forEach((xk, k) => {
    if (k > 0 && xk === d.x[k - 1]) runs.push([]);
    runs.at(-1)!.push(k);
  });
  const stroke = line<number>()
    .x((k) => x(d.x[k]!))
    .y(() => 0);
  // a spin-polarised run: the majority (up) channel and the minority (down, dashed) in two colours
  const spin = d.bandsDownEv !== undefined;
  const draw = (bands: number[][], cls: string, colour: string, dash?: string) => {
    for (const band of bands) {
      const path = runs.map((run) => stroke.y((k) => y(band[k]! - ref))(run) ?? '').join(' ');
      const p = plot
        .append('path')
        .attr('class', cls)
        .attr('fill', 'none')
        .attr('stroke', colour)
        .attr('stroke-width', 1.1)
        .attr('d', path);
      if (dash) p.attr('stroke-dasharray', dash);
    }
  };
  draw(d.bandsEv, spin ? 'band spin-up' : 'band', spin ? SPIN.up : 'currentColor');
  if (d.bandsDownEv) draw(d.bandsDownEv, 'band spin-down', SPIN.down, '4 2');
  if (spin)
    legendInside(
      g,
      [
        { label: 'spin up (majority)', colour: SPIN.up },
        { label: 'spin down (minority), dashed', colour: SPIN.down },
      ],
      iw,
    );
  const facts = [
    zeroFact(d.reference),
    ...(spin ? ['spin-polarised: both channels drawn, spin up (majority) and spin down (minority)'] : []),
  ];
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
        .text(`${name} ${withUnit(edge.energyEv, 'eV')}`);
    }
    facts.push(`${d.gap.direct ? 'direct' : 'indirect'} gap ${withUnit(d.gap.gapEv, 'eV')}`);
  }
  return facts;
}

/** "zero at the valence-band maximum, E_VBM = 6.270 eV (highest occupied level of the SCF, pw.x)"; "zero at the Fermi level, E_F = 6.738 eV (dos.x)". */
export function zeroFact(z: EnergyZero): string {
  const [what, symbol] = z.kind === 'vbm' ? ['valence-band maximum', 'E_VBM'] : ['Fermi level', 'E_F'];
  return `zero at the ${what}, ${symbol} = ${withUnit(z.energyEv, 'eV')}${z.source ? ` (${z.source})` : ''}${z.note ? `; ${z.note}` : ''}`;
}

/** The zero a DOS is drawn against: its own (an insulator's VBM), else E_F; undefined: absolute energies. */
export function dosZero(d: DosPlotData): EnergyZero | undefined {
  if (d.reference) return d.reference;
  return d.fermiEnergyEv !== undefined ? { energyEv: d.fermiEnergyEv, kind: 'fermi' } : undefined;
}

/** The DOS's energy axis: "E − E_VBM (eV)", "E − E_F (eV)" or "E (eV)". */
export function dosAxisLabel(d: DosPlotData): string {
  const z = dosZero(d);
  return z ? (z.kind === 'vbm' ? 'E − E_VBM (eV)' : 'E − E_F (eV)') : 'E (eV)';
}

/**
 * Draws the DOS into `g`, its legend inside, in the bands' energy window around its zero (the DOS
 * axis fitted to what lies inside it; the curves clipped at its edges); returns the legend entries
 * and, when the window leaves data out, a note saying so. A spin-polarised DOS is drawn as its two
 * channels, spin up above the axis and spin down below it (negated, dashed), the projections likewise.
 */
export function drawDos(g: G, d: DosPlotData, iw: number, ih: number): { legend: { label: string; colour: string }[]; note?: string } {
  const zero = dosZero(d);
  const ef = zero?.energyEv ?? 0;
  const es = d.energiesEv.map((e) => e - ef);
  const axis = dosEnergyAxis(es, zero !== undefined);
  // the largest value drawn: the window's (the projections share the DOS's energies)
  const peak = (values: readonly number[]) => values.reduce((m, v, i) => (axis.inside(es[i]!) && v > m ? v : m), 0);
  const spin = d.spin !== undefined;
  const projected = (d.projections ?? []).map((p) => ({ p, split: spin ? p.spin : undefined }));
  const top = spin
    ? Math.max(peak(d.spin!.up), ...projected.map((q) => peak(q.split?.up ?? q.p.dos)))
    : Math.max(peak(d.total), ...(d.projections ?? []).map((p) => peak(p.dos)));
  const bottom = spin ? Math.max(peak(d.spin!.down), ...projected.map((q) => peak(q.split?.down ?? []))) : 0;
  const x = scaleLinear().domain(axis.domain).range([0, iw]);
  const clipId = `dreams-dos-clip-${++dosPlots}`;
  g.append('clipPath').attr('id', clipId).append('rect').attr('width', iw).attr('height', ih);
  const plot = g.append('g').attr('clip-path', `url(#${clipId})`);
  const y = scaleLinear()
    .domain([-bottom * 1.05, top * 1.05 || 1])
    .nice()
    .range([ih, 0]);
  g.append('g').attr('class', 'axis').attr('transform', `translate(0,${ih})`).call(axisBottom(x).ticks(6));
  g.append('g').attr('class', 'axis').call(axisLeft(y).ticks(5));
  const curve = (values: number[], colour: string, down = false) => {
    const p = plot
      .append('path')
      .attr('class', down ? 'dos-curve spin-down' : spin ? 'dos-curve spin-up' : 'dos-curve')
      .attr('fill', 'none')
      .attr('stroke', colour)
      .attr('stroke-width', 1.3)
      .attr(
        'd',
        line<number>()
          .x((_, i) => x(es[i]!))
          .y((v) => y(down ? -v : v))(values),
      );
    if (down) p.attr('stroke-dasharray', '4 2');
  };
  const legend = [{ label: spin ? 'total (spin up above the axis, spin down below)' : 'total', colour: 'currentColor' }];
  if (d.spin) {
    curve(d.spin.up, 'currentColor');
    curve(d.spin.down, 'currentColor', true);
    g.append('line')
      .attr('class', 'dos-axis')
      .attr('x1', 0)
      .attr('x2', iw)
      .attr('y1', y(0))
      .attr('y2', y(0))
      .attr('stroke', 'var(--vscode-editorRuler-foreground, #999)');
  } else curve(d.total, 'currentColor');
  projected.forEach(({ p, split }, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    if (split) {
      curve(split.up, colour);
      curve(split.down, colour, true);
    } else curve(p.dos, colour);
    legend.push({ label: `PDOS ${p.label}`, colour });
  });
  legendInside(g, legend, iw);
  if (zero)
    g.append('line')
      .attr('class', 'energy-zero')
      .attr('x1', x(0))
      .attr('x2', x(0))
      .attr('y1', 0)
      .attr('y2', ih)
      .attr('stroke', 'var(--vscode-charts-blue, #1565c0)')
      .attr('stroke-dasharray', '4 3');
  return { legend, ...(axis.note ? { note: axis.note } : {}) };
}

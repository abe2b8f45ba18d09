/**
 * The report's plots from recorded artifacts: each convergence sweep (the change of each quantity
 * it was judged by against the finest run, the tolerance band, the chosen value) and E(V) with the fitted
 * equation of state. The fit curve is the recorded fit's form through the recorded
 * points, redrawn for display only.
 */
import { fitEos, type EosForm } from '../dft/eos';
import { convergencePanels } from './convergencePanels';
import type { ConvergenceSelectionValue, EosFitValue } from '../artifacts/shapes';
import { renderChart } from './svg';

const SWEEP_AXIS: Record<string, { x: string; title: string }> = {
  ecutwfc: { x: 'ecutwfc (Ry)', title: 'Cutoff convergence' },
  kspacing: { x: 'k-point spacing (1/Å)', title: 'k-point convergence' },
};

const PANEL_COLOUR: Record<string, string> = {
  energy: '#1565c0',
  lattice: '#6a1b9a',
  shape: '#00838f',
  moment: '#ef6c00',
  gap: '#2e7d32',
  force: '#c62828',
};

/**
 * The sweep against the setting, one panel per quantity it was judged by (convergencePanels.ts: the energy, the lattice
 * shift its pressure implies, the shape, the moment, the gap, the forces), each in its own unit with its tolerance as a
 * band and the chosen value marked; two or more panels are stacked in one SVG.
 */
export function convergenceSvg(sel: ConvergenceSelectionValue, artifactId: string): string {
  const axis = SWEEP_AXIS[sel.parameter] ?? { x: sel.parameter, title: `${sel.parameter} convergence` };
  const panels = convergencePanels(sel);
  const unit = sel.parameter === 'ecutwfc' ? ' Ry' : sel.parameter === 'kspacing' ? ' 1/Å' : '';
  const charts = panels.map((p) =>
    renderChart({
      title: `${axis.title} (${artifactId})${panels.length > 1 ? `: ${p.quantity}` : ''}`,
      xLabel: axis.x,
      yLabel: `${p.label} (${p.unit})`,
      yLog: true,
      series: [
        {
          label: `change against the finest run${p.points.some((q) => !(q.y > 0)) ? ' (hollow: no change as printed, on the floor)' : ''}`,
          points: p.points,
          markers: true,
          color: PANEL_COLOUR[p.quantity] ?? '#1565c0',
        },
      ],
      ...(p.tolerance !== undefined ? { band: { from: 0, to: p.tolerance, label: `tolerance ${p.tolerance} ${p.unit}` } } : {}),
      marker: { x: sel.chosenValue, label: `chosen ${sel.chosenValue}${unit}${sel.converged ? '' : ' (not converged)'}` },
    }),
  );
  if (charts.length === 1) return charts[0]!;
  const heightOf = (svg: string): number => Number(/height="([\d.]+)"/.exec(svg)?.[1] ?? 0);
  const widthOf = (svg: string): number => Number(/width="([\d.]+)"/.exec(svg)?.[1] ?? 0);
  const width = Math.max(...charts.map(widthOf));
  let y = 0;
  const placed = charts.map((svg) => {
    const at = y;
    y += heightOf(svg);
    return svg.replace(/^<svg /, `<svg y="${at}" `);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}">${placed.join('')}</svg>`;
}

export function eosSvg(fit: EosFitValue, artifactId: string): string {
  const points = fit.points.map((p) => ({ x: p.volumeAngstrom3, y: p.energyEv }));
  const lo = Math.min(...points.map((p) => p.x));
  const hi = Math.max(...points.map((p) => p.x));
  let curve: { x: number; y: number }[] = [];
  try {
    const refit = fitEos(
      fit.points.map((p) => ({ volumeA3: p.volumeAngstrom3, energyEv: p.energyEv })),
      fit.form as EosForm,
    );
    curve = Array.from({ length: 81 }, (_, i) => lo + ((hi - lo) * i) / 80).map((v) => ({ x: v, y: refit.energyAtEv(v) }));
  } catch {
    curve = [];
  }
  return renderChart({
    title: `E(V), ${fit.form} fit (${artifactId})`,
    xLabel: `volume per cell (Å³, ${fit.natoms} atom${fit.natoms === 1 ? '' : 's'})`,
    yLabel: 'total energy (eV)',
    series: [
      ...(curve.length
        ? [{ label: `${fit.form}: V0 ${fit.v0Angstrom3.toFixed(3)} Å³, B0 ${fit.b0GPa.toFixed(1)} GPa`, points: curve, color: '#c62828' }]
        : []),
      { label: 'pw.x', points, line: false, markers: true, color: '#1565c0' },
    ],
    marker: { x: fit.v0Angstrom3, label: 'V0' },
  });
}

/**
 * The report's plots from recorded artifacts: each convergence sweep (error per atom
 * against the finest run, the tolerance band, the chosen value) and E(V) with the fitted
 * equation of state. The fit curve is the recorded fit's form through the recorded
 * points, redrawn for display only.
 */
import { fitEos, type EosForm } from '../dft/eos';
import { judgesPressure } from '../dft/convergence';
import type { ConvergenceSelectionValue, EosFitValue } from '../artifacts/shapes';
import { renderChart } from './svg';

const SWEEP_AXIS: Record<string, { x: string; title: string }> = {
  ecutwfc: { x: 'ecutwfc (Ry)', title: 'Cutoff convergence' },
  kspacing: { x: 'k-point spacing (1/Å)', title: 'k-point convergence' },
};

/** The quantity a sweep was judged by: the lattice shift its pressure error implies (pressure, both), else the energy per atom. */
export function convergenceSvg(sel: ConvergenceSelectionValue, artifactId: string): string {
  const axis = SWEEP_AXIS[sel.parameter] ?? { x: sel.parameter, title: `${sel.parameter} convergence` };
  const sorted = [...sel.tested].sort((a, b) => a.value - b.value);
  const byPressure =
    sel.criterion &&
    judgesPressure(sel.criterion.kind) &&
    sel.criterion.toleranceLatticePercent !== undefined &&
    sorted.every((t) => t.latticeShiftPercent !== undefined);
  const points = sorted.map((t) => ({ x: t.value, y: byPressure ? t.latticeShiftPercent! : Math.abs(t.deltaMevPerAtom) }));
  const tolerance = byPressure
    ? sel.criterion!.toleranceLatticePercent!
    : (sel.toleranceMevPerAtom ?? sel.criterion?.toleranceMevPerAtom ?? 0);
  return renderChart({
    title: `${axis.title} (${artifactId})`,
    xLabel: axis.x,
    yLabel: byPressure ? '|P − P(finest)|/3B (% of a)' : '|E − E(finest)| (meV/atom)',
    series: [{ label: 'tested', points, markers: true, color: '#1565c0' }],
    band: { from: 0, to: tolerance, label: `tolerance ${tolerance} ${byPressure ? '% of a' : 'meV/atom'}` },
    marker: { x: sel.chosenValue, label: `chosen ${sel.chosenValue}${sel.converged ? '' : ' (not converged)'}` },
  });
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

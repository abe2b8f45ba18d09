// Convergence selections (converged_settings values) of sweeps measured with pw.x 6.7, for the tests of
// what shows them (the report judge's selection tables, the run report): each row's numbers as measured,
// the choice and criterion as the test sets them.
import type { ConvergenceSelectionValue } from '../../src/core/artifacts/shapes';

/**
 * bcc Fe's cutoff sweep (bench:moments, k 0.2 1/Å, 30–70 Ry): ecutwfc (Ry), ΔE against 70 Ry (meV/atom),
 * total and absolute magnetization (μB/atom) and the larger of their changes against 70 Ry (μB/atom).
 */
const FE_CUTOFF_MOMENTS = [
  [30, 121.181, 2.24, 2.36, 0.01],
  [40, 40.852, 2.24, 2.36, 0.01],
  [50, 8.434, 2.24, 2.37, 0],
  [60, 1.214, 2.24, 2.37, 0],
  [70, 0, 2.24, 2.37, 0],
] as const;

/** The bcc Fe sweep with its magnetization per row; the choice (chosenValue, chosen, criterion) is the caller's. */
export function feMomentSelection(
  choice: Pick<ConvergenceSelectionValue, 'chosenValue' | 'chosen' | 'criterion'> & Partial<ConvergenceSelectionValue>,
): ConvergenceSelectionValue {
  return {
    parameter: 'ecutwfc',
    tested: FE_CUTOFF_MOMENTS.map(([value, d, m, abs, dm]) => ({
      value,
      energyEvPerAtom: -833.17602 + d / 1000,
      deltaMevPerAtom: d,
      magnetizationMuBPerAtom: m,
      absoluteMagnetizationMuBPerAtom: abs,
      deltaMomentMuBPerAtom: dm,
    })),
    converged: true,
    ...choice,
  };
}

/** Diamond Si, LDA, 4×4×4, fixed occupations: the cutoff sweep judged by the gap at 0.01 eV, 18 Ry chosen. */
export const SI_GAP_SELECTION: ConvergenceSelectionValue = {
  parameter: 'ecutwfc',
  tested: [
    { value: 14, energyEvPerAtom: -107.5804, deltaMevPerAtom: 160.3, gapEv: 0.6697, deltaGapEv: 0.0354 },
    { value: 18, energyEvPerAtom: -107.6881, deltaMevPerAtom: 52.65, gapEv: 0.6363, deltaGapEv: 0.002 },
    { value: 30, energyEvPerAtom: -107.7408, deltaMevPerAtom: 0, gapEv: 0.6343, deltaGapEv: 0 },
  ],
  chosenValue: 18,
  chosen: { ecutwfcRy: 18 },
  criterion: { kind: 'gap', toleranceGapEv: 0.01 },
  converged: true,
};

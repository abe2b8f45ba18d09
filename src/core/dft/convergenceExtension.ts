/**
 * Extending a convergence sweep that has not shown convergence: the next value to try (one at a
 * time, the smallest step that can settle the question) and what its run is predicted to cost,
 * from the plane waves × k-points of the sweep's own measured runs. Cutoffs in Ry, k spacings
 * in 1/Å (with 2π), cell in Å, times in seconds of pw.x.
 *
 * One value at a time: the selection runs again after each, and the sweep stops as soon as the
 * last two values agree within the tolerance. A cutoff grows by the sweep's own last step; a k
 * spacing shrinks by the sweep's last ratio but by no more than 20 % (a mesh about a fifth
 * denser per axis), and always so that the mesh grows.
 */
import { meshFromSpacing } from './kpoints';
import type { Cell } from './types';

export type SweepParameter = 'ecutwfc' | 'kspacing';

const sig = (x: number, digits: number): number => Number(x.toPrecision(digits));

/** A k spacing no more than this factor below the finest tested one. */
const K_STEP_RATIO = 0.8;

/** The next value past the finest, from the values tested so far (any order). */
export function nextSweepValue(parameter: SweepParameter, tested: number[], cellAngstrom?: Cell): number {
  const finerIsHigher = parameter === 'ecutwfc';
  const values = [...new Set(tested)].sort((a, b) => (finerIsHigher ? a - b : b - a));
  const last = values.at(-1)!;
  const before = values.at(-2);
  if (finerIsHigher) {
    const step = before !== undefined ? last - before : 5;
    return sig(last + (step > 0 ? step : 5), 6);
  }
  const ratio = before !== undefined ? Math.max(K_STEP_RATIO, Math.min(0.95, last / before)) : K_STEP_RATIO;
  let next = sig(last * ratio, 3);
  if (cellAngstrom) {
    // the mesh must grow, or the new run repeats the finest one
    const product = (s: number) => meshFromSpacing(cellAngstrom, s).reduce((p, n) => p * n, 1);
    const finest = product(last);
    while (product(next) <= finest && next > 1e-3) next = sig(next * 0.97, 3);
  }
  return next;
}

/** A run's size for the cost model: its cutoff and its k-points (the mesh's product, before symmetry). */
export interface RunSize {
  ecutwfcRy: number;
  kPoints: number;
}

export interface MeasuredRun extends RunSize {
  /** pw.x's own time for the run (wall clock as it printed it), s. */
  seconds: number;
}

export interface CostPrediction {
  seconds: number;
  /** The measured run the prediction scales from. */
  from: MeasuredRun;
  /** The candidate's plane waves × k-points over the measured run's. */
  workRatio: number;
}

/** Plane waves grow as ecutwfc^(3/2) in a fixed cell; the work of an SCF as plane waves × k-points. */
export const runWork = (r: RunSize): number => r.ecutwfcRy ** 1.5 * r.kPoints;

/**
 * The predicted pw.x time of a candidate run of the same crystal: the measured run of the largest
 * work (the one whose fixed overheads matter least) scaled by the ratio of plane waves × k-points.
 * Undefined when no run of the sweep has a measured time.
 */
export function predictRunSeconds(measured: MeasuredRun[], candidate: RunSize): CostPrediction | undefined {
  const usable = measured.filter((m) => m.seconds > 0 && m.kPoints > 0 && m.ecutwfcRy > 0);
  if (!usable.length) return undefined;
  const from = usable.reduce((a, b) => (runWork(b) > runWork(a) ? b : a));
  const workRatio = runWork(candidate) / runWork(from);
  return { seconds: from.seconds * workRatio, from, workRatio };
}

/** k-points of the mesh a spacing gives on this cell. */
export function kPointsAt(cellAngstrom: Cell, spacingPerAngstrom: number): { mesh: [number, number, number]; kPoints: number } {
  const mesh = meshFromSpacing(cellAngstrom, spacingPerAngstrom) as [number, number, number];
  return { mesh, kPoints: mesh[0] * mesh[1] * mesh[2] };
}

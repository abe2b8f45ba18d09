/**
 * Murnaghan and Vinet fits by Levenberg–Marquardt. Parameters are scaled to order one
 * (energy relative to the lowest point, volume over the mean volume, B0 times the mean
 * volume) so one damping schedule and one finite-difference step suit every system.
 */
import { levenbergMarquardt } from 'ml-levenberg-marquardt';
import type { EosParameters } from './eosForms';

type EnergyForm = (v: number, p: EosParameters) => number;

export interface NonlinearOutcome {
  parameters: EosParameters;
  iterations: number;
  /** The largest relative parameter change of a restarted fit: a convergence check. */
  restartDrift: number;
}

export function fitNonlinearEos(volumes: number[], energies: number[], form: EnergyForm, guess: EosParameters): NonlinearOutcome {
  const vScale = volumes.reduce((s, v) => s + v, 0) / volumes.length;
  const eRef = Math.min(...energies);
  const data = { x: volumes.map((v) => v / vScale), y: energies.map((e) => e - eRef) };
  const model = (q: number[]) => (x: number) => form(x, { e0: q[0], v0: q[1], b0: q[2], b0Prime: q[3] });
  const run = (start: number[]) =>
    levenbergMarquardt(data, model, {
      initialValues: start,
      damping: 1e-3,
      gradientDifference: 1e-6,
      centralDifference: true,
      maxIterations: 400,
      errorTolerance: 1e-30,
      minValues: [-1e3, 0.2, 1e-6, 1.05],
      maxValues: [1e3, 5, 1e5, 30],
    });
  const start = [guess.e0 - eRef, guess.v0 / vScale, guess.b0 * vScale, Math.min(Math.max(guess.b0Prime, 1.5), 15)];
  const first = run(start);
  const second = run(first.parameterValues);
  const a = first.parameterValues;
  const b = second.parameterValues;
  const restartDrift = Math.max(...[1, 2, 3].map((k) => Math.abs(b[k] - a[k]) / Math.abs(b[k])));
  return {
    parameters: { e0: b[0] + eRef, v0: b[1] * vScale, b0: b[2] / vScale, b0Prime: b[3] },
    iterations: first.iterations + second.iterations,
    restartDrift,
  };
}

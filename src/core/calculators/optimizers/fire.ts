/**
 * FIRE structural relaxation (Bitzek, Koskinen, Gähler, Moseler & Gumbsch, Phys. Rev.
 * Lett. 97, 170201 (2006)): damped dynamics that mixes the velocity towards the force
 * while the power F·v stays positive and restarts from rest when it turns negative.
 * Unit masses; steps capped at maxStepAngstrom; fixed atoms never move.
 */
import type { Structure, Vec3 } from '../../dft/types';
import type { Calculator, CalculatorResult, RelaxResult } from '../types';

export interface RelaxOptions {
  /** Converged when the largest force on a free atom is below this, eV/Å. */
  fmaxEvPerAngstrom?: number;
  maxSteps?: number;
  maxStepAngstrom?: number;
  signal?: AbortSignal;
  /** Called after each force evaluation (step 0 is the starting structure). */
  onStep?: (step: number, energyEv: number, fmaxEvPerAngstrom: number) => void;
}

export const DEFAULT_RELAX = { fmaxEvPerAngstrom: 0.1, maxSteps: 200, maxStepAngstrom: 0.2 } as const;

/** Largest force norm on atoms that are free to move, eV/Å. */
export function maxFreeForce(forces: Vec3[], fixed?: boolean[]): number {
  let m = 0;
  forces.forEach((f, i) => {
    if (!fixed?.[i]) m = Math.max(m, Math.hypot(f[0], f[1], f[2]));
  });
  return m;
}

export async function relaxWithFire(calculator: Calculator, start: Structure, opts: RelaxOptions = {}): Promise<RelaxResult> {
  const fmaxTarget = opts.fmaxEvPerAngstrom ?? DEFAULT_RELAX.fmaxEvPerAngstrom;
  const maxSteps = opts.maxSteps ?? DEFAULT_RELAX.maxSteps;
  const maxStep = opts.maxStepAngstrom ?? DEFAULT_RELAX.maxStepAngstrom;
  const n = start.positions.length;
  const fixed = start.fixed ?? new Array<boolean>(n).fill(false);
  const positions = start.positions.map((p) => [...p] as Vec3);
  const velocity = positions.map(() => [0, 0, 0] as Vec3);
  let dt = 0.1;
  const dtMax = 1.0;
  const nMin = 5;
  const fInc = 1.1;
  const fDec = 0.5;
  const alphaStart = 0.1;
  const fAlpha = 0.99;
  let alpha = alphaStart;
  let sinceNegative = 0;
  const trace: number[] = [];
  const current = (): Structure => ({ ...start, positions: positions.map((p) => [...p] as Vec3) });
  const evaluate = async (step: number): Promise<{ r: CalculatorResult; fmax: number }> => {
    if (opts.signal?.aborted) throw new Error(`relaxation cancelled at step ${step}`);
    const r = await calculator.calculate(current(), { signal: opts.signal });
    r.forcesEvPerAngstrom.forEach((f, i) => {
      if (fixed[i]) f.fill(0);
    });
    const fmax = maxFreeForce(r.forcesEvPerAngstrom, fixed);
    trace.push(r.energyEv);
    opts.onStep?.(step, r.energyEv, fmax);
    return { r, fmax };
  };
  let { r, fmax } = await evaluate(0);
  let steps = 0;
  while (fmax >= fmaxTarget && steps < maxSteps) {
    const f = r.forcesEvPerAngstrom;
    let power = 0,
      vNorm2 = 0,
      fNorm2 = 0;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        power += f[i]![k]! * velocity[i]![k]!;
        vNorm2 += velocity[i]![k]! ** 2;
        fNorm2 += f[i]![k]! ** 2;
      }
    }
    if (power > 0) {
      const mix = Math.sqrt(vNorm2 / Math.max(fNorm2, 1e-300));
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) velocity[i]![k] = (1 - alpha) * velocity[i]![k]! + alpha * f[i]![k]! * mix;
      if (sinceNegative > nMin) {
        dt = Math.min(dt * fInc, dtMax);
        alpha *= fAlpha;
      }
      sinceNegative++;
    } else {
      for (const v of velocity) v.fill(0);
      alpha = alphaStart;
      dt *= fDec;
      sinceNegative = 0;
    }
    // Semi-implicit Euler with unit masses, then cap the whole step so no atom jumps.
    let longest = 0;
    const delta = velocity.map((v, i) => {
      for (let k = 0; k < 3; k++) v[k] = v[k]! + dt * f[i]![k]!;
      if (fixed[i]) v.fill(0);
      const d = v.map((x) => x * dt) as Vec3;
      longest = Math.max(longest, Math.hypot(...d));
      return d;
    });
    const shrink = longest > maxStep ? maxStep / longest : 1;
    delta.forEach((d, i) => {
      for (let k = 0; k < 3; k++) positions[i]![k] = positions[i]![k]! + d[k]! * shrink;
    });
    steps++;
    ({ r, fmax } = await evaluate(steps));
  }
  return {
    structure: current(),
    energyEv: r.energyEv,
    forcesEvPerAngstrom: r.forcesEvPerAngstrom,
    fmaxEvPerAngstrom: fmax,
    steps,
    converged: fmax < fmaxTarget,
    energyTraceEv: trace,
    optimizer: 'FIRE',
  };
}

/**
 * The shape side of convergence for a non-cubic crystal: the cell shape a vc-relax reaches (c/a,
 * b/a, angles) is set by the deviatoric (traceless) part of the stress, which converges on its own
 * k-mesh and cutoff, not with the pressure. Stresses in kbar (pw.x's unit and sign: positive =
 * compressive), moduli in GPa (1 GPa = 10 kbar), shape errors in % (a strain: for a hexagonal or
 * tetragonal cell, the relative error of c/a).
 *
 * A change Δs of the deviatoric stress at one cell moves the relaxed shape by a strain of about
 * Δs/C, where C is the crystal's modulus against that change of shape at constant volume. For a
 * hexagonal cell, s_zz = (2/3)(σ_zz − σ_xx) is the largest principal value and
 * δln(c/a) = Δs_zz / C_s with C_s = (2/9)(C11 + C12 + 2·C33 − 4·C13); in general the largest
 * principal value of Δs bounds every principal strain it causes. C is estimated from the probe's
 * bulk modulus (SHAPE_MODULUS_PER_BULK), so no elastic-constant runs are needed.
 */
import type { Vec3 } from './types';

type Tensor = [Vec3, Vec3, Vec3];

/**
 * C ≈ B/2: a nominal modulus, not a bound. It is on the safe side for hcp Mg, measured (LDA,
 * Mg.pz-n-vbc, 15 Ry, 30×30×17, the bench's sweep cell) C_s = 24.1 GPa = 0.81 B from c/a strained by
 * ±1 % at constant volume, where the probe's B is 29.9 GPa (docs/notes/workflows.md, "c/a of a
 * non-cubic crystal"), and for Ti; not for hcp Zn or Cd, whose C_s from published elastic constants is
 * about 0.37–0.46 B. A crystal whose shape is softer than B/2 gets a c/a error up to (B/2)/C times the
 * tolerance (about 1.35× for Zn); the table shows the deviatoric stress error in kbar for that reason,
 * and shapeModulusGPa takes a known modulus.
 */
export const SHAPE_MODULUS_PER_BULK = 0.5;

/** The shape modulus used when none is given: SHAPE_MODULUS_PER_BULK × B, GPa. */
export const shapeModulusFromBulk = (bulkModulusGPa: number): number => SHAPE_MODULUS_PER_BULK * bulkModulusGPa;

/** The traceless part s = σ − (tr σ/3)·I, symmetrised (pw.x prints a symmetric tensor to 0.01 kbar). */
export function deviatoricStress(stress: Tensor): Tensor {
  const p = (stress[0][0] + stress[1][1] + stress[2][2]) / 3;
  const sym = (i: number, j: number) => (stress[i]![j]! + stress[j]![i]!) / 2;
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => sym(i, j) - (i === j ? p : 0))) as Tensor;
}

/** The principal value of largest magnitude of a symmetric traceless 3×3 tensor (closed form). */
export function largestPrincipalValue(s: Tensor): number {
  const [[a, d, e], [, b, f], [, , c]] = s;
  const q = (a + b + c) / 3;
  const off = d * d + e * e + f * f;
  const p2 = ((a - q) ** 2 + (b - q) ** 2 + (c - q) ** 2 + 2 * off) / 6;
  if (p2 < 1e-24) return Math.abs(q);
  const p = Math.sqrt(p2);
  const m = (x: number) => x / p;
  const [ba, bb, bc, bd, be, bf] = [m(a - q), m(b - q), m(c - q), m(d), m(e), m(f)];
  const det = ba * (bb * bc - bf * bf) - bd * (bd * bc - bf * be) + be * (bd * bf - bb * be);
  const phi = Math.acos(Math.max(-1, Math.min(1, det / 2))) / 3;
  const l1 = q + 2 * p * Math.cos(phi);
  const l3 = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  return Math.abs(l1) >= Math.abs(l3) ? l1 : l3;
}

/** |largest principal value of s(run) − s(reference)|, kbar: how far the run's shape-driving stress is from the finest run's. */
export function deviatoricStressErrorKbar(run: Tensor, reference: Tensor): number {
  const s = deviatoricStress(run);
  const r = deviatoricStress(reference);
  const diff = [0, 1, 2].map((i) => [0, 1, 2].map((j) => s[i]![j]! - r[i]![j]!)) as Tensor;
  return Math.abs(largestPrincipalValue(diff));
}

/** The shape strain (in %, e.g. of c/a) a deviatoric stress error of `kbar` implies at shape modulus C (GPa). */
export function shapeShiftPercent(kbar: number, shapeModulusGPa: number): number {
  return (100 * Math.abs(kbar)) / (shapeModulusGPa * 10);
}

/** The deviatoric stress error (kbar) that moves the shape by `percent` % at shape modulus C (GPa). */
export function stressForShapeShift(percent: number, shapeModulusGPa: number): number {
  return (shapeModulusGPa * 10 * percent) / 100;
}

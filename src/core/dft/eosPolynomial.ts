/**
 * Equations of state that are cubic polynomials in a power of the volume, fitted by linear
 * least squares: Birch–Murnaghan 3rd order is exactly a cubic in V^(-2/3), the SJ form a
 * cubic in V^(-1/3). The cubic's four coefficients map one-to-one onto (E0, V0, B0, B0').
 *
 * The variable is centred and scaled (u in [-1, 1] over the data) so the normal matrix
 * stays well conditioned for the narrow volume windows of an EOS (±5 % in V).
 */
import { Matrix, solve } from 'ml-matrix';
import type { EosParameters } from './eosForms';

export interface CubicInVolumePower {
  /** The power p of x = (V / vScale)^p. */
  exponent: number;
  vScale: number;
  xCentre: number;
  xHalfWidth: number;
  /** E(u) = c0 + c1 u + c2 u^2 + c3 u^3 with u = (x - xCentre) / xHalfWidth. */
  coefficients: [number, number, number, number];
}

export type PolynomialOutcome =
  | { ok: true; polynomial: CubicInVolumePower; parameters: EosParameters }
  | { ok: false; polynomial: CubicInVolumePower; reason: 'no-minimum' };

export function fitCubicInVolumePower(volumes: number[], energies: number[], exponent: number): PolynomialOutcome {
  const vScale = volumes.reduce((s, v) => s + v, 0) / volumes.length;
  const xs = volumes.map((v) => (v / vScale) ** exponent);
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const xCentre = (xMin + xMax) / 2;
  const xHalfWidth = (xMax - xMin) / 2;
  const us = xs.map((x) => (x - xCentre) / xHalfWidth);
  const design = new Matrix(us.map((u) => [1, u, u * u, u * u * u]));
  const c = solve(design, Matrix.columnVector(energies)).to1DArray() as [number, number, number, number];
  const polynomial: CubicInVolumePower = { exponent, vScale, xCentre, xHalfWidth, coefficients: c };

  // Stationary points: P'(u) = c1 + 2 c2 u + 3 c3 u^2 = 0; the minimum has P''(u) > 0.
  const candidates = quadraticRoots(3 * c[3], 2 * c[2], c[1]).filter((u) => 2 * c[2] + 6 * c[3] * u > 0 && xCentre + u * xHalfWidth > 0);
  if (candidates.length === 0) return { ok: false, polynomial, reason: 'no-minimum' };
  const u0 = candidates[0];
  const x0 = xCentre + u0 * xHalfWidth;
  const v0 = vScale * x0 ** (1 / exponent);

  // Chain rule from u to V at the minimum, where dP/du = 0.
  const p = exponent;
  const dxdv = (p / vScale) * (v0 / vScale) ** (p - 1);
  const d2xdv2 = ((p * (p - 1)) / vScale ** 2) * (v0 / vScale) ** (p - 2);
  const dudv = dxdv / xHalfWidth;
  const d2udv2 = d2xdv2 / xHalfWidth;
  const p2 = 2 * c[2] + 6 * c[3] * u0;
  const p3 = 6 * c[3];
  const e2 = p2 * dudv ** 2;
  const e3 = p3 * dudv ** 3 + 3 * p2 * dudv * d2udv2;
  const parameters: EosParameters = {
    e0: c[0] + c[1] * u0 + c[2] * u0 ** 2 + c[3] * u0 ** 3,
    v0,
    b0: v0 * e2,
    b0Prime: -1 - (v0 * e3) / e2,
  };
  return { ok: true, polynomial, parameters };
}

export function evaluateCubicInVolumePower(poly: CubicInVolumePower, volume: number): number {
  const u = ((volume / poly.vScale) ** poly.exponent - poly.xCentre) / poly.xHalfWidth;
  const c = poly.coefficients;
  return c[0] + u * (c[1] + u * (c[2] + u * c[3]));
}

/** Real roots of a x^2 + b x + c = 0 (a may be 0), by the cancellation-free formula. */
function quadraticRoots(a: number, b: number, c: number): number[] {
  if (Math.abs(a) < 1e-14 * (Math.abs(b) + Math.abs(c))) return b === 0 ? [] : [-c / b];
  const disc = b * b - 4 * a * c;
  if (disc < 0) return [];
  const q = -0.5 * (b + Math.sign(b || 1) * Math.sqrt(disc));
  const roots = [q / a];
  if (q !== 0) roots.push(c / q);
  return roots;
}

/**
 * Cell parameters a, b, c (Å) and α, β, γ (degrees) ↔ lattice vectors (rows, Å), with the
 * orientation crystallographic files imply and ASE uses: a along x, b in the xy plane.
 * Cosines within 1e-12 of 0 are taken as 0, so a 90° angle gives exact zeros.
 */
import type { Cell, Vec3 } from '../types';
import { dot, norm } from './vec';

export interface CellParameters {
  a: number;
  b: number;
  c: number;
  alpha: number;
  beta: number;
  gamma: number;
}

const DEG = Math.PI / 180;

function cosDeg(angle: number): number {
  if (angle === 90) return 0;
  const c = Math.cos(angle * DEG);
  return Math.abs(c) < 1e-12 ? 0 : c;
}

function sinDeg(angle: number): number {
  if (angle === 90) return 1;
  return Math.sin(angle * DEG);
}

/** Lattice vectors (rows, Å) from cell parameters; throws a RangeError when they make no cell. */
export function cellFromParameters(p: CellParameters): Cell {
  const { a, b, c, alpha, beta, gamma } = p;
  for (const [name, v] of Object.entries({ a, b, c })) {
    if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`cell length ${name} = ${v} Å is not a positive number`);
  }
  for (const [name, v] of Object.entries({ alpha, beta, gamma })) {
    if (!(v > 0 && v < 180)) throw new RangeError(`cell angle ${name} = ${v}° is not between 0 and 180`);
  }
  const ca = cosDeg(alpha);
  const cb = cosDeg(beta);
  const cg = cosDeg(gamma);
  const sg = sinDeg(gamma);
  const cx = cb;
  const cy = (ca - cb * cg) / sg;
  const cz2 = 1 - cx * cx - cy * cy;
  if (!(cz2 > 1e-12)) throw new RangeError(`the angles α = ${alpha}°, β = ${beta}°, γ = ${gamma}° make no three-dimensional cell`);
  const cz = Math.sqrt(cz2);
  return [
    [a, 0, 0],
    [b * cg, b * sg, 0],
    [c * cx, c * cy, c * cz],
  ];
}

const angle = (u: Vec3, v: Vec3): number => Math.acos(Math.max(-1, Math.min(1, dot(u, v) / (norm(u) * norm(v))))) / DEG;

/** a, b, c and α (b∧c), β (a∧c), γ (a∧b) of lattice vectors given as rows. */
export function parametersOfCell(cell: Cell): CellParameters {
  const [a1, a2, a3] = cell;
  return { a: norm(a1), b: norm(a2), c: norm(a3), alpha: angle(a2, a3), beta: angle(a1, a3), gamma: angle(a1, a2) };
}

import { DftScienceError } from '../scienceError';
import type { Cell, Vec3 } from '../types';
import { cross, dot, scale } from './vec';

/** Signed volume a1 · (a2 × a3), Å^3 (positive for a right-handed cell). */
export const signedVolume = (cell: Cell): number => dot(cell[0], cross(cell[1], cell[2]));

export const cellVolume = (cell: Cell): number => Math.abs(signedVolume(cell));

function requireNonDegenerate(cell: Cell): number {
  const v = signedVolume(cell);
  const scaleA3 = Math.abs(dot(cell[0], cell[0]) * dot(cell[1], cell[1]) * dot(cell[2], cell[2])) ** 0.5;
  if (!Number.isFinite(v) || scaleA3 === 0 || Math.abs(v) < 1e-10 * scaleA3) {
    throw new DftScienceError(
      `the cell ${JSON.stringify(cell)} has (near) zero volume: its three lattice vectors are coplanar. ` +
        'Pass three linearly independent lattice vectors as rows, in Å.',
      { cell },
    );
  }
  return v;
}

/**
 * Reciprocal lattice vectors as rows, with the 2π: b_i · a_j = 2π δ_ij, in 1/Å.
 * b1 = 2π (a2 × a3) / (a1 · a2 × a3), and cyclically.
 */
export function reciprocalCell(cell: Cell): Cell {
  const v = requireNonDegenerate(cell);
  const f = (2 * Math.PI) / v;
  return [scale(cross(cell[1], cell[2]), f), scale(cross(cell[2], cell[0]), f), scale(cross(cell[0], cell[1]), f)];
}

/** Cartesian (Å) from fractional coordinates of the cell. */
export const toCartesian = (cell: Cell, frac: Vec3): Vec3 =>
  [0, 1, 2].map((k) => frac[0] * cell[0][k] + frac[1] * cell[1][k] + frac[2] * cell[2][k]) as Vec3;

/** Fractional coordinates of a Cartesian position (Å) in the cell. */
export function toFractional(cell: Cell, position: Vec3): Vec3 {
  const b = reciprocalCell(cell);
  return [0, 1, 2].map((i) => dot(b[i], position) / (2 * Math.PI)) as Vec3;
}

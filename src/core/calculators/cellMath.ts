/** Small 3-vector and cell helpers for the calculators (Å throughout). */
import type { Cell, Vec3 } from '../dft/types';

export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);

export const volume = (c: Cell): number => Math.abs(dot(c[0], cross(c[1], c[2])));

/**
 * The cell with every zero lattice vector of a non-periodic direction replaced by a unit
 * vector normal to the others, so fractional coordinates exist for molecules and slabs
 * written without a third vector. Throws when a periodic direction has no vector.
 */
export function completeCell(cell: Cell, pbc: readonly boolean[]): Cell {
  const out = cell.map((v) => [...v] as Vec3) as Cell;
  const isZero = (v: Vec3) => norm(v) < 1e-12;
  for (let k = 0; k < 3; k++) {
    if (isZero(out[k]) && pbc[k]) {
      throw new Error(
        `lattice vector ${k + 1} is zero but the structure is periodic along it; give the cell vector (Å) or set pbc[${k}] to false.`,
      );
    }
  }
  const zeros = [0, 1, 2].filter((k) => isZero(out[k]));
  const axes: Vec3[] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (const k of zeros) {
    const others = [0, 1, 2].filter((j) => j !== k && !isZero(out[j]));
    let v: Vec3;
    if (others.length === 2) v = cross(out[others[0]!], out[others[1]!]);
    else if (others.length === 1) {
      const a = out[others[0]!];
      const trial = axes.map((e) => cross(a, e)).sort((x, y) => norm(y) - norm(x))[0]!;
      v = k === (others[0]! + 1) % 3 ? trial : cross(a, trial);
    } else v = axes[k]!;
    out[k] = scale(v, 1 / norm(v));
  }
  return out;
}

/** Rows of the inverse-transpose: fractional f_k = inv[k] · r. */
export function fractionalMatrix(cell: Cell): [Vec3, Vec3, Vec3] {
  const v = dot(cell[0], cross(cell[1], cell[2]));
  if (Math.abs(v) < 1e-12) throw new Error(`the cell ${JSON.stringify(cell)} has zero volume; give three independent lattice vectors (Å).`);
  return [scale(cross(cell[1], cell[2]), 1 / v), scale(cross(cell[2], cell[0]), 1 / v), scale(cross(cell[0], cell[1]), 1 / v)];
}

/** Distance between the lattice planes normal to reciprocal direction k, Å. */
export function planeSpacing(cell: Cell, k: number): number {
  return 1 / norm(fractionalMatrix(cell)[k]!);
}

/**
 * Per-direction atom constraints between frames: a mask over the lattice vectors (POSCAR's
 * selective dynamics fixes fractional coordinates) and a mask over Cartesian x, y, z (pw.x's
 * if_pos, extxyz's move_mask). Two masks are the same constraint when they leave the atom the
 * same free subspace; a mask with no equal in the other frame (fixing one lattice direction of
 * a hexagonal cell, say) has none, and the caller refuses it.
 */
import type { Cell, Vec3 } from '../types';
import { cross, norm } from './vec';
import { reciprocalCell } from './cell';

type Mask = [boolean, boolean, boolean];

const AXES: Vec3[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const ALL_MASKS: Mask[] = [0, 1, 2, 3, 4, 5, 6, 7].map((b) => [!!(b & 1), !!(b & 2), !!(b & 4)]);

/** Unit normals of the constrained directions: fixing fractional coordinate i forbids motion along b_i. */
function forbidden(mask: Mask, frame: 'cartesian' | 'lattice', cell: Cell): Vec3[] {
  const dirs = frame === 'cartesian' ? AXES : reciprocalCell(cell);
  return dirs.filter((_, i) => mask[i]).map((d) => d.map((x) => x / norm(d)) as Vec3);
}

/** Whether two sets of directions span the same subspace. */
function sameSpan(a: Vec3[], b: Vec3[]): boolean {
  if (a.length !== b.length) return false;
  if (a.length === 0 || a.length === 3) return true;
  if (a.length === 1) return norm(cross(a[0]!, b[0]!)) < 1e-9;
  const na = cross(a[0]!, a[1]!);
  const nb = cross(b[0]!, b[1]!);
  return norm(cross(na.map((x) => x / norm(na)) as Vec3, nb.map((x) => x / norm(nb)) as Vec3)) < 1e-9;
}

/** The same constraint in the other frame, or undefined when that frame cannot express it. */
export function convertMask(mask: Mask, from: 'cartesian' | 'lattice', to: 'cartesian' | 'lattice', cell: Cell): Mask | undefined {
  if (from === to || mask.every((x) => x === mask[0])) return mask;
  const want = forbidden(mask, from, cell);
  return ALL_MASKS.find((m) => sameSpan(forbidden(m, to, cell), want));
}

/**
 * Monkhorst–Pack meshes from a k-point spacing, through the reciprocal lattice.
 *
 * Convention (the same as VASP's KSPACING and ASE's `kspacing`): the spacing is a
 * distance in reciprocal space in 1/Å that INCLUDES the 2π, i.e. it is measured in the
 * units of b_i with b_i · a_j = 2π δ_ij. Along reciprocal axis i the mesh has
 *
 *     n_i = max(1, ceil(|b_i| / spacing))
 *
 * points, so the distance between neighbouring points, |b_i| / n_i, never exceeds the
 * requested spacing. The ceiling forgives a relative excess of 1e-9 so that a spacing
 * computed from a mesh (`spacingOfMesh`) gives that mesh back despite rounding.
 *
 * |b_i| = 2π |a_j × a_k| / V, not 2π / |a_i|: the two agree only when a_i is
 * orthogonal to the other two vectors. For the fcc primitive cell 2π/|a_i| is short by
 * √(2/3) and for a hexagonal cell by √3/2, which gives too coarse a mesh.
 *
 * Along a non-periodic axis (a slab's normal with vacuum, pbc false) the mesh has one point.
 *
 * An equation-of-state series keeps the mesh of its reference (central) cell at every
 * volume: recomputed per volume, the mesh gains or loses a point somewhere in a ±5 % volume
 * range and puts a step into E(V) that spoils B0 and B0'.
 */
import { DftScienceError } from './scienceError';
import { reciprocalCell } from './structure/cell';
import { norm } from './structure/vec';
import type { Cell, Vec3 } from './types';

export type KMesh = [number, number, number];
export type Periodicity = [boolean, boolean, boolean];

const ROUNDING_SLACK = 1e-9;
const ALL_PERIODIC: Periodicity = [true, true, true];

/** |b_i| for each reciprocal lattice vector, 1/Å (with the 2π). */
export function reciprocalLengthsPerAngstrom(cell: Cell): Vec3 {
  return reciprocalCell(cell).map(norm) as Vec3;
}

/** The mesh whose point spacing along every periodic reciprocal axis is at most `spacingPerAngstrom`. */
export function meshFromSpacing(cell: Cell, spacingPerAngstrom: number, pbc: Periodicity = ALL_PERIODIC): KMesh {
  if (!Number.isFinite(spacingPerAngstrom) || spacingPerAngstrom <= 0) {
    throw new DftScienceError(
      `k-point spacing ${spacingPerAngstrom} 1/Å is not a positive number. ` +
        'Pass the largest allowed distance between k-points in 1/Å including 2π (typical values 0.1–0.3).',
      { spacingPerAngstrom },
    );
  }
  const lengths = reciprocalLengthsPerAngstrom(cell);
  return lengths.map((b, i) => (pbc[i] ? Math.max(1, Math.ceil((b / spacingPerAngstrom) * (1 - ROUNDING_SLACK))) : 1)) as KMesh;
}

export interface MeshSpacing {
  /** |b_i| / n_i along each axis, 1/Å (with the 2π); null along a non-periodic axis. */
  perAxisPerAngstrom: [number | null, number | null, number | null];
  /** The coarsest periodic axis: the spacing the mesh guarantees everywhere, 1/Å. */
  maxPerAngstrom: number;
}

/** The spacing a mesh achieves on a cell: the inverse of `meshFromSpacing`. */
export function spacingOfMesh(cell: Cell, mesh: KMesh, pbc: Periodicity = ALL_PERIODIC): MeshSpacing {
  if (!mesh.every((n) => Number.isInteger(n) && n >= 1)) {
    throw new DftScienceError(
      `k-mesh ${JSON.stringify(mesh)} is not three positive integers. Pass the numbers of points along b1, b2, b3, e.g. [8, 8, 8].`,
      { mesh },
    );
  }
  const lengths = reciprocalLengthsPerAngstrom(cell);
  const perAxis = lengths.map((b, i) => (pbc[i] ? b / mesh[i] : null)) as MeshSpacing['perAxisPerAngstrom'];
  const periodic = perAxis.filter((s): s is number => s !== null);
  if (periodic.length === 0) {
    throw new DftScienceError('the structure is periodic along no axis, so a k-mesh has no spacing; use the Γ point alone.', {
      pbc,
    });
  }
  return { perAxisPerAngstrom: perAxis, maxPerAngstrom: Math.max(...periodic) };
}

/**
 * A half neighbour list (each pair once) under periodic boundary conditions in any
 * triclinic cell, with a Verlet skin: the list is built for cutoff + skin and reused
 * until some atom has moved more than half the skin since the build.
 */
import type { Cell, Structure, Vec3 } from '../dft/types';
import { completeCell, fractionalMatrix, planeSpacing } from './cellMath';

export interface NeighbourPairs {
  /** First and second atom of each pair. */
  first: Int32Array;
  second: Int32Array;
  /** Cartesian image offset added to the second atom's position, Å (3 per pair). */
  offset: Float64Array;
  count: number;
}

export class NeighbourList {
  private pairs: NeighbourPairs | undefined;
  private builtPositions: Vec3[] = [];
  private builtCell: Cell | undefined;
  private builtPbc = '';
  /** How many times the list was (re)built; for benchmarks and tests. */
  builds = 0;

  constructor(
    readonly cutoffAngstrom: number,
    readonly skinAngstrom = 0.3,
  ) {}

  /** Pairs within cutoff + skin of the current structure, rebuilt only when needed. */
  update(s: Structure): NeighbourPairs {
    if (!this.pairs || this.needsRebuild(s)) {
      this.pairs = buildPairs(s, this.cutoffAngstrom + this.skinAngstrom);
      this.builtPositions = s.positions.map((p) => [...p] as Vec3);
      this.builtCell = s.cell.map((v) => [...v]) as Cell;
      this.builtPbc = s.pbc.join();
      this.builds++;
    }
    return this.pairs;
  }

  private needsRebuild(s: Structure): boolean {
    if (s.positions.length !== this.builtPositions.length || s.pbc.join() !== this.builtPbc) return true;
    if (s.cell.some((v, i) => v.some((x, k) => x !== this.builtCell![i]![k]))) return true;
    const limit2 = (this.skinAngstrom / 2) ** 2;
    for (let i = 0; i < s.positions.length; i++) {
      const p = s.positions[i]!;
      const q = this.builtPositions[i]!;
      const dx = p[0] - q[0],
        dy = p[1] - q[1],
        dz = p[2] - q[2];
      if (dx * dx + dy * dy + dz * dz > limit2) return true;
    }
    return false;
  }
}

/** All pairs (i, j, image) with |r_j + offset - r_i| < cutoff, each unordered pair once. */
export function buildPairs(s: Structure, cutoff: number): NeighbourPairs {
  const n = s.positions.length;
  const periodic = s.pbc.some(Boolean);
  const cell = periodic
    ? completeCell(s.cell, s.pbc)
    : ([
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ] as Cell);
  const inv = fractionalMatrix(cell);
  const frac = s.positions.map((p) => inv.map((row) => row[0] * p[0] + row[1] * p[1] + row[2] * p[2]) as Vec3);
  const reach = [0, 1, 2].map((k) => (s.pbc[k] ? Math.ceil(cutoff / planeSpacing(cell, k)) : 0));
  const first: number[] = [];
  const second: number[] = [];
  const offset: number[] = [];
  const cut2 = cutoff * cutoff;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      // Shift j to its nearest image first so atoms far outside the cell still find their neighbours.
      const base = [0, 1, 2].map((k) => (s.pbc[k] ? -Math.round(frac[j]![k]! - frac[i]![k]!) : 0));
      for (let a = -reach[0]!; a <= reach[0]!; a++) {
        for (let b = -reach[1]!; b <= reach[1]!; b++) {
          for (let c = -reach[2]!; c <= reach[2]!; c++) {
            const na = base[0]! + a,
              nb = base[1]! + b,
              nc = base[2]! + c;
            if (i === j && (na > 0 || (na === 0 && (nb > 0 || (nb === 0 && nc >= 0))))) continue;
            const ox = na * cell[0][0] + nb * cell[1][0] + nc * cell[2][0];
            const oy = na * cell[0][1] + nb * cell[1][1] + nc * cell[2][1];
            const oz = na * cell[0][2] + nb * cell[1][2] + nc * cell[2][2];
            const dx = s.positions[j]![0] + ox - s.positions[i]![0];
            const dy = s.positions[j]![1] + oy - s.positions[i]![1];
            const dz = s.positions[j]![2] + oz - s.positions[i]![2];
            if (dx * dx + dy * dy + dz * dz < cut2) {
              first.push(i);
              second.push(j);
              offset.push(ox, oy, oz);
            }
          }
        }
      }
    }
  }
  return { first: Int32Array.from(first), second: Int32Array.from(second), offset: Float64Array.from(offset), count: first.length };
}

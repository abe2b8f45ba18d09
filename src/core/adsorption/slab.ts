/**
 * Slab standardisation for the adsorption search, for any slab read from a file: the
 * surface normal is a1 × a2 (not assumed to be z), pointing into the vacuum above the
 * top surface; the slab is made contiguous across the c boundary; a lateral vector
 * shorter than 6 Å is repeated; a vacuum below 15 Å is widened; the bottom third of the
 * slab (by height) is fixed. Every change is reported in words.
 */
import { DreamsError } from '../errors';
import type { Cell, Structure, Vec3 } from '../dft/types';
import { completeCell, fractionalMatrix } from '../calculators/cellMath';
import { add, cross, dot, norm, scale, unit } from './geometry';

export const MIN_LATERAL_ANGSTROM = 6;
export const MIN_VACUUM_ANGSTROM = 15;

export interface SlabFrame {
  /** Unit surface normal, pointing from the slab into the vacuum above the top surface. */
  normal: Vec3;
  /** Orthonormal in-plane axes; e1 along a1. */
  e1: Vec3;
  e2: Vec3;
}

export interface StandardisedSlab {
  slab: Structure;
  frame: SlabFrame;
  /** Height of each atom along the normal, Å. */
  heightsAngstrom: number[];
  thicknessAngstrom: number;
  vacuumAngstrom: number;
  /** Lateral repetition applied to the input cell. */
  repeat: [number, number];
  /** What was changed and why, one sentence each. */
  changes: string[];
}

export class SlabError extends DreamsError<'science'> {
  constructor(message: string) {
    super('science', message);
    this.name = 'SlabError';
  }
}

export function surfaceFrame(cell: Cell): SlabFrame {
  const n = cross(cell[0], cell[1]);
  if (norm(n) < 1e-8)
    throw new SlabError(
      `the in-plane lattice vectors a1=${JSON.stringify(cell[0])} and a2=${JSON.stringify(cell[1])} are parallel or zero; a slab needs two independent in-plane vectors (Å).`,
    );
  let normal = unit(n);
  if (dot(normal, cell[2]) < 0) normal = scale(normal, -1);
  const e1 = unit(sub3(cell[0], scale(normal, dot(cell[0], normal))));
  return { normal, e1, e2: cross(normal, e1) };
}

const sub3 = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** Heights of the atoms along the normal, Å. */
export const heightsAlong = (s: Structure, normal: Vec3): number[] => s.positions.map((p) => dot(p, normal));

function repeatLaterally(s: Structure, na: number, nb: number): Structure {
  const out: Structure = { ...s, symbols: [], positions: [], cell: [scale(s.cell[0], na), scale(s.cell[1], nb), [...s.cell[2]]] };
  if (s.tags) out.tags = [];
  if (s.fixed) out.fixed = [];
  for (let i = 0; i < na; i++) {
    for (let j = 0; j < nb; j++) {
      const shift = add(scale(s.cell[0], i), scale(s.cell[1], j));
      s.positions.forEach((p, k) => {
        out.symbols.push(s.symbols[k]!);
        out.positions.push(add(p, shift));
        out.tags?.push(s.tags![k]!);
        out.fixed?.push(s.fixed![k]!);
      });
    }
  }
  return out;
}

/** Move atoms by ±c so the slab is one contiguous block along c (files often wrap a slab across the boundary). */
function makeContiguous(s: Structure, changes: string[]): Structure {
  if (!s.pbc[2] || norm(s.cell[2]) < 1e-8) return s;
  const inv = fractionalMatrix(completeCell(s.cell, s.pbc));
  const f3 = s.positions.map((p) => dot(inv[2], p));
  const wrapped = f3.map((f) => f - Math.floor(f));
  const order = [...wrapped].sort((a, b) => a - b);
  let gapStart = order[order.length - 1]!,
    gap = order[0]! + 1 - gapStart;
  for (let k = 1; k < order.length; k++) {
    if (order[k]! - order[k - 1]! > gap) {
      gap = order[k]! - order[k - 1]!;
      gapStart = order[k - 1]!;
    }
  }
  // Put the vacuum gap across the cell boundary: atoms above gapStart go one cell down.
  const shifts = wrapped.map((f, i) => Math.round((f > gapStart + 1e-9 ? f - 1 : f) - f3[i]!));
  const moved = shifts.filter((k) => k !== 0).length;
  if (moved === 0) return s;
  const positions = s.positions.map((p, i) => add(p, scale(s.cell[2], shifts[i]!)));
  changes.push(`moved ${moved} atoms by whole lattice vectors c so the slab is one block between its vacuum gaps.`);
  return { ...s, positions };
}

export interface StandardiseOptions {
  minLateralAngstrom?: number;
  minVacuumAngstrom?: number;
  /** Fraction of the slab thickness, from the bottom, whose atoms are fixed (default 1/3). */
  fixedFraction?: number;
}

export function standardiseSlab(input: Structure, opts: StandardiseOptions = {}): StandardisedSlab {
  const minLateral = opts.minLateralAngstrom ?? MIN_LATERAL_ANGSTROM;
  const minVacuum = opts.minVacuumAngstrom ?? MIN_VACUUM_ANGSTROM;
  const fixedFraction = opts.fixedFraction ?? 1 / 3;
  if (input.symbols.length === 0) throw new SlabError('the slab has no atoms; read a slab structure (extxyz, XSF or a QE input) first.');
  if (!input.pbc[0] || !input.pbc[1]) {
    throw new SlabError(
      `a slab must be periodic along a1 and a2; this structure has pbc=${JSON.stringify(input.pbc)}. Set pbc to [true, true, false] (or true) for a slab.`,
    );
  }
  const changes: string[] = [];
  let s: Structure = { ...input, positions: input.positions.map((p) => [...p] as Vec3), cell: input.cell.map((v) => [...v]) as Cell };
  s = makeContiguous(s, changes);
  const na = Math.max(1, Math.ceil(minLateral / norm(s.cell[0]) - 1e-9));
  const nb = Math.max(1, Math.ceil(minLateral / norm(s.cell[1]) - 1e-9));
  if (na > 1 || nb > 1) {
    changes.push(
      `repeated the cell ${na}×${nb} laterally: |a1| = ${norm(input.cell[0]).toFixed(2)} Å, |a2| = ${norm(input.cell[1]).toFixed(2)} Å, and an adsorbate needs at least ${minLateral} Å to its periodic image.`,
    );
    s = repeatLaterally(s, na, nb);
  }
  const frame = surfaceFrame(s.cell);
  let heights = heightsAlong(s, frame.normal);
  const bottom = Math.min(...heights);
  const top = Math.max(...heights);
  const thickness = top - bottom;
  let vacuum = norm(s.cell[2]) > 1e-8 ? dot(s.cell[2], frame.normal) - thickness : Infinity;
  if (!(vacuum >= minVacuum)) {
    const before = vacuum;
    const c = norm(s.cell[2]) > 1e-8 ? s.cell[2] : frame.normal;
    const cNormal = dot(c, frame.normal);
    const wanted = thickness + minVacuum;
    s = { ...s, cell: [s.cell[0], s.cell[1], scale(c, wanted / cNormal)] };
    vacuum = minVacuum;
    changes.push(
      Number.isFinite(before)
        ? `widened the vacuum from ${before.toFixed(2)} Å to ${minVacuum} Å along the surface normal (below ${minVacuum} Å the slab's two surfaces interact through the periodic image).`
        : `gave the slab a cell vector c with ${minVacuum} Å of vacuum along the surface normal.`,
    );
  }
  heights = heightsAlong(s, frame.normal);
  const fixedBelow = bottom + fixedFraction * thickness - 0.1;
  const fixed = heights.map((h) => h < fixedBelow);
  const hadFixed = input.fixed ? input.fixed.filter(Boolean).length : 0;
  const nowFixed = fixed.filter(Boolean).length;
  if (!input.fixed || input.fixed.some((f, i) => f !== fixed[i % input.fixed!.length])) {
    changes.push(
      `fixed the bottom third of the slab (${nowFixed} atoms below ${(fixedBelow - bottom + 0.1).toFixed(2)} Å from the bottom${input.fixed ? `; the file fixed ${hadFixed}` : ''}).`,
    );
  }
  s = { ...s, fixed };
  return { slab: s, frame, heightsAngstrom: heights, thicknessAngstrom: thickness, vacuumAngstrom: vacuum, repeat: [na, nb], changes };
}

/**
 * The closest pair of atoms of a structure relative to the sum of their covalent radii,
 * periodic images included: the check that a structure is physically possible (no two
 * nuclei a fraction of a bond apart) before a calculator is handed it.
 *
 * Minimum image: the periodic lattice vectors are first reduced (pairwise Lagrange–Gauss
 * steps, the same lattice with vectors as short and as orthogonal as the steps make them),
 * a difference vector is wrapped into the reduced cell, and the 3^k neighbouring images
 * (k periodic directions) are searched; on a reduced basis this finds the nearest image also
 * for a strongly skewed cell. An atom and its own images are a pair too (one atom in a cell
 * too small for it). Cost: N(N+1)/2 · 3^k distance evaluations.
 */
import type { Cell, Structure, Vec3 } from '../types';
import { COVALENT_RADII_ANGSTROM } from './covalentRadii';
import { cellVolume, reciprocalCell, toFractional } from './cell';
import { add, dot, scale, sub } from './vec';

export interface ClosePair {
  /** 0-based indices into the structure's atoms; i ≤ j (i = j: an atom and its own image). */
  i: number;
  j: number;
  distanceAngstrom: number;
  covalentSumAngstrom: number;
  /** distance / covalent sum. */
  ratio: number;
  /** The lattice translation (in units of the structure's own cell vectors) of the image of j nearest to i; [0,0,0] within the cell. */
  image: [number, number, number];
}

export interface CloseContacts {
  /** The pair with the smallest ratio (absent when fewer than one pair could be measured). */
  tightest?: ClosePair;
  /** Pairs whose ratio is below the fraction asked for. */
  below: number;
  /** Symbols with no covalent radius in the table (their atoms are left out). */
  unknown: string[];
  /** The periodic cell has (near) zero volume: no distances are meaningful. */
  degenerateCell: boolean;
}

/** Pairwise-reduce the periodic vectors: b_i −= round(b_i·b_j / b_j·b_j) b_j until none changes. */
function reduce(vectors: Vec3[]): Vec3[] {
  const v = vectors.map((x) => [...x] as Vec3);
  for (let pass = 0; pass < 100; pass++) {
    let changed = false;
    for (let i = 0; i < v.length; i++)
      for (let j = 0; j < v.length; j++) {
        if (i === j) continue;
        const jj = dot(v[j]!, v[j]!);
        if (jj === 0) continue;
        const m = Math.round(dot(v[i]!, v[j]!) / jj);
        if (m !== 0) {
          v[i] = sub(v[i]!, scale(v[j]!, m));
          changed = true;
        }
      }
    if (!changed) break;
  }
  return v;
}

/**
 * Scan every pair (and every atom with its own images) for the smallest distance relative to
 * the sum of covalent radii; count the pairs below `fraction` of it.
 */
export function closeContacts(structure: Structure, fraction: number): CloseContacts {
  const { symbols, positions, cell, pbc } = structure;
  const unknown = [...new Set(symbols.filter((s) => COVALENT_RADII_ANGSTROM[s] === undefined))];
  const periodic = [0, 1, 2].filter((k) => pbc[k]);
  const scaleA3 = Math.sqrt(dot(cell[0], cell[0]) * dot(cell[1], cell[1]) * dot(cell[2], cell[2]));
  const degenerateCell = periodic.length > 0 && (!Number.isFinite(cellVolume(cell)) || scaleA3 === 0 || cellVolume(cell) < 1e-10 * scaleA3);
  if (degenerateCell) return { below: 0, unknown, degenerateCell };

  // The reduced basis spans the same lattice; non-periodic directions keep their vector (never an image).
  const reducedPeriodic = reduce(periodic.map((k) => cell[k]));
  const basis = [...cell] as Cell;
  periodic.forEach((k, n) => {
    basis[k] = reducedPeriodic[n]!;
  });
  const images: Vec3[] = [];
  const steps = (k: number): number[] => (pbc[k] ? [-1, 0, 1] : [0]);
  for (const n0 of steps(0))
    for (const n1 of steps(1))
      for (const n2 of steps(2)) images.push(add(add(scale(basis[0], n0), scale(basis[1], n1)), scale(basis[2], n2)));

  // Wrap a difference vector into the reduced cell along its periodic directions: fractional
  // coordinates through the reciprocal rows of the reduced basis, rounded, subtracted.
  const inv = periodic.length ? reciprocalCell(basis).map((r) => scale(r, 1 / (2 * Math.PI))) : [];
  const wrapK = periodic.map((k) => ({ r: inv[k]!, v: basis[k] }));
  const flatImages = images.flat();
  const nImages = images.length;
  const zero = images.findIndex((t) => t[0] === 0 && t[1] === 0 && t[2] === 0);

  const radius = symbols.map((s) => COVALENT_RADII_ANGSTROM[s]);
  let best: { i: number; j: number; d: Vec3; dist: number; sum: number; ratio: number } | undefined;
  let below = 0;
  for (let i = 0; i < symbols.length; i++) {
    const ri = radius[i];
    if (ri === undefined) continue;
    const pi = positions[i]!;
    for (let j = i; j < symbols.length; j++) {
      const rj = radius[j];
      if (rj === undefined) continue;
      const sum = ri + rj;
      let wx = 0;
      let wy = 0;
      let wz = 0;
      if (i !== j) {
        const pj = positions[j]!;
        wx = pj[0] - pi[0];
        wy = pj[1] - pi[1];
        wz = pj[2] - pi[2];
        for (const { r, v } of wrapK) {
          const m = Math.round(r[0] * wx + r[1] * wy + r[2] * wz);
          if (m !== 0) {
            wx -= m * v[0];
            wy -= m * v[1];
            wz -= m * v[2];
          }
        }
      }
      let dmin2 = Infinity;
      let tBest = -1;
      for (let t = 0; t < nImages; t++) {
        // An atom is no pair with itself (the zero translation); with its images it is.
        if (i === j && t === zero) continue;
        const x = wx + flatImages[3 * t]!;
        const y = wy + flatImages[3 * t + 1]!;
        const z = wz + flatImages[3 * t + 2]!;
        const d2 = x * x + y * y + z * z;
        if (d2 < dmin2) {
          dmin2 = d2;
          tBest = t;
        }
      }
      if (tBest < 0) continue;
      const dist = Math.sqrt(dmin2);
      const ratio = dist / sum;
      if (ratio < fraction) below++;
      if (!best || ratio < best.ratio) {
        const t = images[tBest]!;
        best = { i, j, d: [wx + t[0], wy + t[1], wz + t[2]], dist, sum, ratio };
      }
    }
  }
  if (!best) return { below, unknown, degenerateCell };
  // The translation from j's own position to its nearest image, in the structure's own cell vectors.
  const direct = best.i === best.j ? ([0, 0, 0] as Vec3) : sub(positions[best.j]!, positions[best.i]!);
  const translation = sub(best.d, direct);
  const image = (periodic.length ? toFractional(cell, translation).map((x) => Math.round(x) + 0) : [0, 0, 0]) as [number, number, number];
  return {
    tightest: {
      i: best.i,
      j: best.j,
      distanceAngstrom: best.dist,
      covalentSumAngstrom: best.sum,
      ratio: best.ratio,
      image,
    },
    below,
    unknown,
    degenerateCell,
  };
}

/**
 * The standard band path of a crystal, in the Setyawan–Curtarolo convention (the labels of
 * ASE, pymatgen's default and most band-structure figures: Γ–X–W–K–Γ–L–U–W–L–K|U–X for fcc),
 * chosen from the Bravais lattice of the standardised cell (moyo, structure/symmetry.ts) and
 * written in fractional coordinates of the reciprocal lattice of the cell the user computes
 * with, whatever its orientation or choice of primitive vectors. The cell must be primitive:
 * bands of a supercell are folded. Lengths in Å, k in 1/Å (with the 2π).
 */
import { DftScienceError } from '../scienceError';
import type { Cell, Structure, Vec3 } from '../types';
import { cellVolume, reciprocalCell, signedVolume } from '../structure/cell';
import { analyseSymmetry, type SymmetryInfo } from '../structure/symmetry';
import { dot, norm, sub } from '../structure/vec';
import { scPath, type ScCanonical, type ScLatticeType } from './kpathTables';

export const BAND_PATH_CONVENTION = 'Setyawan-Curtarolo 2010';

/** A band path on one cell: the labelled points and the runs of labels joined by lines. */
export interface BandPath {
  convention: typeof BAND_PATH_CONVENTION;
  /** Lattice and variant: "FCC", "BCT2", "ORCF1", ... */
  lattice: string;
  spaceGroup: { number: number; symbol: string };
  /** Fractional coordinates in the reciprocal lattice of the given cell. */
  points: Record<string, Vec3>;
  /** Connected runs of labels; a new run starts after a break ("|"). */
  segments: string[][];
}

/** One node of pw.x's K_POINTS crystal_b list: the point and how many k-points lead from it to the next. */
export interface PathNode {
  label: string;
  k: Vec3;
  /** Points from this node (inclusive) to the next (exclusive); 1 before a break (the line jumps). */
  count: number;
}

/** The k-points pw.x generates from a crystal_b list, with the path coordinate of each (1/Å). */
export interface SampledPath {
  nodes: PathNode[];
  kpoints: Vec3[];
  /** Distance along the path, 1/Å; unchanged across a break. */
  x: number[];
  /** The labelled ticks: index into kpoints, path coordinate, label ("K|U" at a break). */
  ticks: { index: number; x: number; label: string }[];
}

type M3 = [Vec3, Vec3, Vec3];

const det3 = (m: M3): number => signedVolume(m as Cell);

function inverse3(m: M3): M3 {
  const d = det3(m);
  const [a, b, c] = m;
  const adj: M3 = [
    [b[1] * c[2] - b[2] * c[1], a[2] * c[1] - a[1] * c[2], a[1] * b[2] - a[2] * b[1]],
    [b[2] * c[0] - b[0] * c[2], a[0] * c[2] - a[2] * c[0], a[2] * b[0] - a[0] * b[2]],
    [b[0] * c[1] - b[1] * c[0], a[1] * c[0] - a[0] * c[1], a[0] * b[1] - a[1] * b[0]],
  ];
  return adj.map((r) => r.map((x) => x / d)) as M3;
}

const combine = (n: Vec3, rows: M3): Vec3 => [0, 1, 2].map((k) => n[0] * rows[0][k] + n[1] * rows[1][k] + n[2] * rows[2][k]) as Vec3;

/** Canonical Setyawan–Curtarolo parameters of the lattice, from the standardised conventional cell. */
export function canonicalLattice(info: SymmetryInfo): ScCanonical {
  const centring = info.spaceGroup.symbol[0]!;
  const { aAngstrom: a, bAngstrom: b, cAngstrom: c, betaDegrees: beta } = info.lattice;
  const system = info.spaceGroup.crystalSystem;
  const make = (type: ScLatticeType, p: Partial<ScCanonical>): ScCanonical => ({ type, a, b: a, c: a, alpha: 90, ...p });
  switch (system) {
    case 'Cubic':
      return make(centring === 'F' ? 'FCC' : centring === 'I' ? 'BCC' : 'CUB', {});
    case 'Tetragonal':
      return make(centring === 'I' ? 'BCT' : 'TET', { c });
    case 'Orthorhombic': {
      if (centring === 'C' || centring === 'A') {
        // the two axes of the centred face become a < b; the third is c
        const [f1, f2, other] = centring === 'C' ? [a, b, c] : [b, c, a];
        return make('ORCC', { a: Math.min(f1, f2), b: Math.max(f1, f2), c: other });
      }
      const [x, y, z] = [a, b, c].sort((p, q) => p - q) as [number, number, number];
      return make(centring === 'F' ? 'ORCF' : centring === 'I' ? 'ORCI' : 'ORC', { a: x, b: y, c: z });
    }
    case 'Hexagonal':
      return make('HEX', { c });
    case 'Trigonal':
      if (centring !== 'R') return make('HEX', { c });
      return make('RHL', {
        a: Math.sqrt((a * a) / 3 + (c * c) / 9),
        alpha: Math.acos((2 * c * c - 3 * a * a) / (2 * c * c + 6 * a * a)) / (Math.PI / 180),
      });
    case 'Monoclinic':
      if (centring === 'P') {
        // unique axis b (standardised, β obtuse) becomes a; the oblique pair sorted b ≤ c, α = 180° − β
        return make('MCL', { a: b, b: Math.min(a, c), c: Math.max(a, c), alpha: 180 - beta });
      }
      // C-centred (on the face of a and the unique b): the unique axis becomes a, the centred face's
      // other axis b, and c stays; the convention needs b ≤ c
      if (centring === 'C' && a <= c * (1 + 1e-6)) return make('MCLC', { a: b, b: a, c, alpha: 180 - beta });
      break;
  }
  throw new DftScienceError(
    `no standard band path is defined here for the ${system.toLowerCase()} ${centring}-centred lattice of space group ${info.spaceGroup.symbol} (${info.spaceGroup.number}): ` +
      'the Setyawan–Curtarolo paths are implemented for cubic, tetragonal, orthorhombic, hexagonal, rhombohedral and monoclinic lattices ' +
      "(a C-centred monoclinic one only where its centred face's other axis is not longer than c). " +
      'Give the path explicitly as labelled points in crystal coordinates.',
    { spaceGroup: info.spaceGroup.number },
  );
}

/** A basis of the same lattice with shorter, more orthogonal vectors, and the integer matrix to it (rows: combinations of the input rows). */
function reduce(cell: Cell): { basis: M3; u: M3 } {
  const basis = cell.map((v) => [...v]) as M3;
  const u: M3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let changed = true, guard = 0; changed && guard < 200; guard++) {
    changed = false;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        if (i === j) continue;
        const q = Math.round(dot(basis[i], basis[j]) / dot(basis[j], basis[j]));
        if (q === 0) continue;
        const next = sub(basis[i], basis[j].map((x) => q * x) as Vec3);
        if (norm(next) < norm(basis[i]) - 1e-9) {
          basis[i] = next;
          u[i] = sub(u[i], u[j].map((x) => q * x) as Vec3);
          changed = true;
        }
      }
    }
  }
  return { basis, u };
}

/**
 * The integer matrix M with rows of M · cell equal to the rows of `target` up to a rotation
 * (same lengths and angles), or undefined when the two cells are not the same lattice.
 */
export function latticeCorrespondence(cell: Cell, target: Cell, relTol = 2e-3): M3 | undefined {
  const { basis, u } = reduce(cell);
  const lengths = target.map(norm);
  const vectors: { n: Vec3; v: Vec3; len: number }[] = [];
  const R = 2;
  for (let i = -R; i <= R; i++)
    for (let j = -R; j <= R; j++)
      for (let k = -R; k <= R; k++) {
        if (i === 0 && j === 0 && k === 0) continue;
        const n: Vec3 = [i, j, k];
        const v = combine(n, basis);
        vectors.push({ n, v, len: norm(v) });
      }
  const candidates = lengths.map((l) => vectors.filter((c) => Math.abs(c.len - l) <= relTol * l));
  const close = (x: number, y: number, scale: number) => Math.abs(x - y) <= relTol * scale;
  // of the isometries, the one closest to the identity: a cell already in the canonical setting keeps its coordinates
  let best: { m: M3; proper: boolean; distance: number } | undefined;
  for (const c0 of candidates[0]!) {
    for (const c1 of candidates[1]!) {
      if (!close(dot(c0.v, c1.v), dot(target[0], target[1]), lengths[0]! * lengths[1]!)) continue;
      for (const c2 of candidates[2]!) {
        if (!close(dot(c0.v, c2.v), dot(target[0], target[2]), lengths[0]! * lengths[2]!)) continue;
        if (!close(dot(c1.v, c2.v), dot(target[1], target[2]), lengths[1]! * lengths[2]!)) continue;
        const n: M3 = [c0.n, c1.n, c2.n];
        if (Math.abs(Math.round(det3(n))) !== 1) continue;
        const m = n.map((row) => combine(row, u)) as M3;
        // a proper rotation keeps the handedness; an improper one is a proper one times inversion (k → −k, the same bands)
        const proper = Math.sign(det3(m)) * Math.sign(signedVolume(cell)) === Math.sign(signedVolume(target));
        const distance = m.reduce((sum, row, i) => sum + row.reduce((t, x, j) => t + Math.abs(x - (i === j ? 1 : 0)), 0), 0);
        if (!best || (proper && !best.proper) || (proper === best.proper && distance < best.distance)) best = { m, proper, distance };
      }
    }
  }
  return best?.m;
}

/** The standard band path of a periodic structure, on its own cell. */
export function standardBandPath(structure: Structure, options: { symprecAngstrom?: number } = {}): BandPath {
  const info = analyseSymmetry(structure, options);
  const canonical = canonicalLattice(info);
  const sc = scPath(canonical);
  const vIn = cellVolume(structure.cell);
  const vPrim = cellVolume(sc.primitiveCell);
  const ratio = vIn / vPrim;
  if (Math.abs(ratio - 1) > 2e-3) {
    const n = Math.round(ratio);
    throw new DftScienceError(
      `the cell is not primitive: it holds ${Math.abs(ratio - n) < 1e-2 ? n : ratio.toFixed(3)} primitive cells of its ${sc.variant} lattice (space group ${info.spaceGroup.symbol}), ` +
        'so its bands would be folded onto a smaller Brillouin zone. Compute the band structure on the primitive cell (the standardised primitive cell of its symmetry analysis).',
      { volumeAngstrom3: vIn, primitiveVolumeAngstrom3: vPrim },
    );
  }
  const m = latticeCorrespondence(structure.cell, sc.primitiveCell);
  if (!m) {
    throw new DftScienceError(
      `the cell's lattice could not be matched to the ${sc.variant} lattice of its own symmetry analysis (space group ${info.spaceGroup.symbol}); ` +
        'the structure may be slightly distorted: try a larger symmetry tolerance (symprec), or symmetrise the structure.',
      { variant: sc.variant },
    );
  }
  // k_frac(cell) = M⁻¹ k_frac(canonical): the same Cartesian point in both frames
  const mi = inverse3(m);
  const points: Record<string, Vec3> = {};
  for (const [label, f] of Object.entries(sc.points)) {
    points[label] = [0, 1, 2].map((j) => clean(mi[j]![0] * f[0] + mi[j]![1] * f[1] + mi[j]![2] * f[2])) as Vec3;
  }
  return {
    convention: BAND_PATH_CONVENTION,
    lattice: sc.variant,
    spaceGroup: { number: info.spaceGroup.number, symbol: info.spaceGroup.symbol },
    points,
    segments: sc.segments,
  };
}

const clean = (x: number): number => (Math.abs(x - Math.round(x * 1e8) / 1e8) < 1e-10 ? Math.round(x * 1e8) / 1e8 : x) || 0;

/** Cartesian k (1/Å) of fractional reciprocal coordinates of `cell`. */
export function cartesianK(cell: Cell, f: Vec3): Vec3 {
  return combine(f, reciprocalCell(cell) as M3);
}

/**
 * The crystal_b nodes of a path on `cell`, with about `pointsPerInverseAngstrom` k-points per
 * 1/Å of path (at least 2 per segment), and the k-points pw.x generates from them: from each
 * node `count` points towards the next, and the last node alone.
 */
export function samplePath(path: Pick<BandPath, 'points' | 'segments'>, cell: Cell, pointsPerInverseAngstrom: number): SampledPath {
  if (!(pointsPerInverseAngstrom > 0)) {
    throw new DftScienceError(
      `a band path needs a positive density of k-points (got ${pointsPerInverseAngstrom} per 1/Å); 20–50 per 1/Å is usual.`,
      { pointsPerInverseAngstrom },
    );
  }
  const nodes: PathNode[] = [];
  for (const run of path.segments) {
    run.forEach((label, i) => {
      const k = path.points[label];
      const next = run[i + 1];
      if (!k || (next !== undefined && !path.points[next])) {
        const missing = !k ? label : next!;
        throw new DftScienceError(`the path names ${missing}, which is not among its points (${Object.keys(path.points).join(', ')}).`, {
          label: missing,
        });
      }
      const count =
        next === undefined
          ? 1
          : Math.max(2, Math.round(norm(sub(cartesianK(cell, path.points[next]!), cartesianK(cell, k))) * pointsPerInverseAngstrom));
      nodes.push({ label, k, count });
    });
  }
  return pathFromNodes(nodes, cell);
}

/** The k-points pw.x generates from crystal_b nodes on `cell`, with their path coordinates and ticks. */
export function pathFromNodes(nodes: PathNode[], cell: Cell): SampledPath {
  if (nodes.length === 0) throw new DftScienceError('a band path needs at least one point.', {});
  const kpoints: Vec3[] = [];
  const x: number[] = [];
  const ticks: SampledPath['ticks'] = [];
  let pos = 0;
  let afterBreak = false;
  nodes.forEach((node, i) => {
    const next = nodes[i + 1];
    const steps = next ? node.count : 1;
    for (let j = 0; j < steps; j++) {
      const k = next ? (node.k.map((v, d) => v + ((next.k[d]! - v) * j) / node.count) as Vec3) : node.k;
      // across a break pw.x jumps to the next node: the path coordinate does not advance
      if (kpoints.length > 0 && !(j === 0 && afterBreak)) pos += norm(sub(cartesianK(cell, k), cartesianK(cell, kpoints.at(-1)!)));
      if (j === 0) {
        if (afterBreak) ticks.at(-1)!.label += `|${node.label}`;
        else ticks.push({ index: kpoints.length, x: pos, label: node.label });
      }
      kpoints.push(k);
      x.push(pos);
    }
    afterBreak = next !== undefined && node.count === 1;
  });
  return { nodes, kpoints, x, ticks };
}

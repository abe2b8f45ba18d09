/**
 * What a 3-D structure view draws, as plain geometry (no DOM, no WebGL): the atoms of the cell
 * repeated n1×n2×n3 times, the periodic images that sit on the far faces of the shown block
 * (so a conventional cell shows its corner and face atoms, as crystallographers draw it), the
 * bonds between shown atoms (covalent radii from the element table), and the edges of the unit
 * cell. Lengths in Å, Cartesian. Shared by the notebook renderer and the structure editor.
 */
import { elementOf, UNKNOWN_ELEMENT_COLOUR } from '../../src/shared/elements';

export type V3 = [number, number, number];
export type Cell3 = [V3, V3, V3];

export interface SceneInput {
  symbols: string[];
  positions: V3[];
  cell: Cell3;
  /** Periodic directions (all three when absent). */
  pbc?: [boolean, boolean, boolean];
  fixed?: boolean[];
}

export interface SceneAtom {
  /** Index of the atom in the input. */
  index: number;
  symbol: string;
  position: V3;
  colour: string;
  /** Drawn radius, Å. */
  radius: number;
  fixed: boolean;
  /** The repeat (or boundary image) this atom belongs to; [0,0,0] is the cell itself. */
  image: V3;
}

export interface Scene {
  atoms: SceneAtom[];
  /** Pairs of indices into `atoms`. */
  bonds: [number, number][];
  /** Edges of the unit cell (12 segments), when the structure is periodic. */
  cellEdges: [V3, V3][];
  /** Whether bonds were left out because the scene is too large to search for them cheaply. */
  bondsOmitted: boolean;
}

export interface SceneOptions {
  repeat?: V3;
  /** Add the periodic images on the far faces of the shown block (fractional coordinate ≈ 0). */
  boundaryImages?: boolean;
  /** Sphere radius as a fraction of the covalent radius. */
  radiusScale?: number;
  /** A bond is drawn between atoms closer than this factor times the sum of covalent radii. */
  bondFactor?: number;
  /** Above this many atoms no bonds are searched. */
  maxAtomsForBonds?: number;
}

const BOUNDARY_TOLERANCE = 1e-3;

const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
const det3 = (m: Cell3) =>
  m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
  m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
  m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);

/** Fractional coordinates of a Cartesian point in a cell (rows are the lattice vectors). */
export function fractional(cell: Cell3, p: V3): V3 {
  const d = det3(cell);
  if (Math.abs(d) < 1e-12) return [0, 0, 0];
  const [a, b, c] = cell;
  // p = f0·a + f1·b + f2·c, solved by Cramer's rule.
  const solve = (u: V3, v: V3, w: V3) =>
    u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  return [solve(p, b, c) / d, solve(a, p, c) / d, solve(a, b, p) / d];
}

export function colourOf(symbol: string): string {
  return elementOf(symbol)?.colour ?? UNKNOWN_ELEMENT_COLOUR;
}

export function covalentRadiusOf(symbol: string): number {
  return elementOf(symbol)?.covalentRadiusAngstrom ?? 1.2;
}

/** The twelve edges of the parallelepiped spanned by the cell at the origin. */
export function cellEdges(cell: Cell3): [V3, V3][] {
  const [a, b, c] = cell;
  const o: V3 = [0, 0, 0];
  const corners = { o, a, b, c, ab: add(a, b), ac: add(a, c), bc: add(b, c), abc: add(add(a, b), c) };
  const e = (p: keyof typeof corners, q: keyof typeof corners): [V3, V3] => [corners[p], corners[q]];
  return [
    e('o', 'a'),
    e('o', 'b'),
    e('o', 'c'),
    e('a', 'ab'),
    e('a', 'ac'),
    e('b', 'ab'),
    e('b', 'bc'),
    e('c', 'ac'),
    e('c', 'bc'),
    e('ab', 'abc'),
    e('ac', 'abc'),
    e('bc', 'abc'),
  ];
}

export function buildScene(s: SceneInput, options: SceneOptions = {}): Scene {
  const pbc = s.pbc ?? [true, true, true];
  const repeat = options.repeat ?? [1, 1, 1];
  const n: V3 = [
    pbc[0] ? Math.max(1, Math.round(repeat[0])) : 1,
    pbc[1] ? Math.max(1, Math.round(repeat[1])) : 1,
    pbc[2] ? Math.max(1, Math.round(repeat[2])) : 1,
  ];
  const radiusScale = options.radiusScale ?? 0.5;
  const periodic = pbc.some(Boolean) && Math.abs(det3(s.cell)) > 1e-9;
  const atoms: SceneAtom[] = [];
  const seen = new Set<string>();
  const push = (index: number, image: V3) => {
    const key = `${index}:${image.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    const symbol = s.symbols[index]!;
    const shift = add(add(scale(s.cell[0], image[0]), scale(s.cell[1], image[1])), scale(s.cell[2], image[2]));
    atoms.push({
      index,
      symbol,
      position: add(s.positions[index]!, shift),
      colour: colourOf(symbol),
      radius: covalentRadiusOf(symbol) * radiusScale,
      fixed: s.fixed?.[index] === true,
      image,
    });
  };
  for (let i = 0; i < s.symbols.length; i++) {
    for (let x = 0; x < n[0]; x++) for (let y = 0; y < n[1]; y++) for (let z = 0; z < n[2]; z++) push(i, [x, y, z]);
  }
  if (periodic && options.boundaryImages !== false) {
    // An atom at fractional 0 along a periodic direction also shows at the far face of the block.
    for (let i = 0; i < s.symbols.length; i++) {
      const f = fractional(s.cell, s.positions[i]!);
      const extra = f.map((x, k) => (pbc[k] && Math.abs(x) < BOUNDARY_TOLERANCE ? [0, n[k]!] : [0])) as [number[], number[], number[]];
      const base: V3[] = [];
      for (let x = 0; x < n[0]; x++) for (let y = 0; y < n[1]; y++) for (let z = 0; z < n[2]; z++) base.push([x, y, z]);
      for (const [bx, by, bz] of base) {
        for (const dx of extra[0])
          for (const dy of extra[1])
            for (const dz of extra[2]) {
              if (!dx && !dy && !dz) continue;
              const img: V3 = [dx ? n[0] : bx, dy ? n[1] : by, dz ? n[2] : bz];
              push(i, img);
            }
      }
    }
  }
  const maxAtoms = options.maxAtomsForBonds ?? 3000;
  const bonds: [number, number][] = [];
  const bondsOmitted = atoms.length > maxAtoms;
  if (!bondsOmitted) {
    const factor = options.bondFactor ?? 1.15;
    // A cell list keeps the search near linear for large repeats.
    const maxR = Math.max(...atoms.map((a) => covalentRadiusOf(a.symbol)));
    const bin = Math.max(2 * maxR * factor, 0.5);
    const grid = new Map<string, number[]>();
    const keyOf = (p: V3) => p.map((x) => Math.floor(x / bin));
    atoms.forEach((a, i) => {
      const k = keyOf(a.position).join(',');
      const list = grid.get(k);
      if (list) list.push(i);
      else grid.set(k, [i]);
    });
    atoms.forEach((a, i) => {
      const [kx, ky, kz] = keyOf(a.position);
      for (let dx = -1; dx <= 1; dx++)
        for (let dy = -1; dy <= 1; dy++)
          for (let dz = -1; dz <= 1; dz++) {
            for (const j of grid.get(`${kx! + dx},${ky! + dy},${kz! + dz}`) ?? []) {
              if (j <= i) continue;
              const b = atoms[j]!;
              const d = Math.hypot(a.position[0] - b.position[0], a.position[1] - b.position[1], a.position[2] - b.position[2]);
              if (d > 0.1 && d < factor * (covalentRadiusOf(a.symbol) + covalentRadiusOf(b.symbol))) bonds.push([i, j]);
            }
          }
    });
  }
  return { atoms, bonds, cellEdges: periodic ? cellEdges(s.cell) : [], bondsOmitted };
}

/** Reduced chemical formula in order of first appearance and the formula units: NaCl ×4 → "NaCl", 4. */
export function reducedFormula(symbols: string[]): { formula: string; z: number } {
  const counts = new Map<string, number>();
  for (const e of symbols) counts.set(e, (counts.get(e) ?? 0) + 1);
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const z = [...counts.values()].reduce(gcd, 0) || 1;
  return { formula: [...counts].map(([e, n]) => `${e}${n / z > 1 ? n / z : ''}`).join(''), z };
}

/** The formula for a title: "NaCl (Z = 4)" for a conventional rocksalt cell, "Mg (Z = 2)" for hcp Mg, "ZnO (Z = 2)". */
export function formulaOf(symbols: string[]): string {
  const { formula, z } = reducedFormula(symbols);
  return z > 1 && /[a-z]*[A-Z]/.test(formula.replace(/^[A-Z][a-z]?\d*/, '')) ? `${formula} (Z = ${z})` : formula;
}

/** Few atoms tell little on their own: cells of up to four atoms start as 2×2×2; slabs repeat along the surface only. */
export function defaultRepeat(s: SceneInput): V3 {
  const pbc = s.pbc ?? [true, true, true];
  if (!pbc[2]) return [2, 2, 1];
  return s.symbols.length <= 4 ? [2, 2, 2] : [1, 1, 1];
}

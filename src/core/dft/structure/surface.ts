/**
 * Slabs of low-index facets with a lateral p×q supercell, a number of layers, vacuum and
 * fixed bottom layers. Cell vectors, atom order (bottom layer first) and tags follow ASE's
 * `ase.build.fcc111` & co.: tag 1 is the top layer, increasing downward (adsorbates get 0).
 * The 111 and 0001 cells (and bcc110) are the non-orthogonal 60° cells.
 *
 * `vacuumAngstrom` is the vacuum on EACH side of the slab (as in ASE): the gap between
 * periodic images is twice it.
 */
import { DftScienceError } from '../scienceError';
import type { Cell, Structure, Vec3 } from '../types';

export type Facet = 'fcc111' | 'fcc100' | 'fcc110' | 'bcc110' | 'bcc100' | 'hcp0001';
export const FACETS = ['fcc111', 'fcc100', 'fcc110', 'bcc110', 'bcc100', 'hcp0001'] as const satisfies readonly Facet[];

export interface SlabSpec {
  facet: Facet;
  symbol: string;
  aAngstrom: number;
  /** hcp0001 only; defaults to the ideal √(8/3) a. */
  cAngstrom?: number;
  /** Lateral repetitions of the 1×1 surface cell along a1 and a2. */
  size: [number, number];
  layers: number;
  vacuumAngstrom: number;
  /** How many bottom layers are fixed in relaxations (0 = none). */
  fixedLayers?: number;
}

interface FacetGeometry {
  /** Lengths of the 1×1 cell (and the layer spacing) in units of a. */
  cellInA: [number, number, number];
  /** a2 has an x component of half a1 (60° cell). */
  hexagonal: boolean;
  /** Lateral offset (fractions of the 1×1 cell) of the layer `fromTop` layers below the top one. */
  offset: (fromTop: number) => [number, number];
}

const abab =
  (shift: [number, number]) =>
  (fromTop: number): [number, number] =>
    fromTop % 2 === 1 ? shift : [0, 0];

export const FACET_GEOMETRY: Record<Facet, (a: number, c: number) => FacetGeometry> = {
  fcc100: () => ({ cellInA: [Math.SQRT1_2, Math.SQRT1_2, 0.5], hexagonal: false, offset: abab([0.5, 0.5]) }),
  fcc110: () => ({ cellInA: [1, Math.SQRT1_2, Math.sqrt(0.125)], hexagonal: false, offset: abab([0.5, 0.5]) }),
  bcc100: () => ({ cellInA: [1, 1, 0.5], hexagonal: false, offset: abab([0.5, 0.5]) }),
  bcc110: () => ({ cellInA: [1, Math.SQRT1_2, Math.SQRT1_2], hexagonal: true, offset: abab([-0.5, 1]) }),
  // ABC stacking: the top layer A, then B under the hcp hollow, then C under the fcc hollow
  fcc111: () => ({
    cellInA: [Math.SQRT1_2, Math.sqrt(0.375), 1 / Math.sqrt(3)],
    hexagonal: true,
    offset: (k) =>
      (
        [
          [0, 0],
          [-1 / 3, 2 / 3],
          [1 / 3, 1 / 3],
        ] as [number, number][]
      )[k % 3],
  }),
  hcp0001: (a, c) => ({ cellInA: [1, Math.sqrt(0.75), (0.5 * c) / a], hexagonal: true, offset: abab([-1 / 3, 2 / 3]) }),
};

export function slab(spec: SlabSpec): Structure {
  const { facet, symbol, aAngstrom: a, size, layers, vacuumAngstrom: vacuum } = spec;
  const fixedLayers = spec.fixedLayers ?? 0;
  if (!FACETS.includes(facet)) {
    throw new DftScienceError(`unknown facet ${JSON.stringify(facet)}. Use one of ${FACETS.join(', ')}.`, { spec });
  }
  if (!Number.isFinite(a) || a <= 0)
    throw new DftScienceError(`lattice constant a = ${a} Å is not a positive number; pass a in Å.`, { spec });
  if (!Array.isArray(size) || size.length !== 2 || !size.every((n) => Number.isInteger(n) && n >= 1)) {
    throw new DftScienceError(
      `lateral size ${JSON.stringify(size)} is not two positive integers; pass [p, q], e.g. [3, 3] for a 3×3 cell.`,
      { spec },
    );
  }
  if (!Number.isInteger(layers) || layers < 1) throw new DftScienceError(`layers = ${layers} is not a positive integer.`, { spec });
  if (!Number.isFinite(vacuum) || vacuum <= 0) {
    throw new DftScienceError(`vacuum = ${vacuum} Å is not positive; pass the vacuum on each side of the slab in Å (7–10 is usual).`, {
      spec,
    });
  }
  if (!Number.isInteger(fixedLayers) || fixedLayers < 0 || fixedLayers >= layers) {
    throw new DftScienceError(
      `fixedLayers = ${fixedLayers} must be an integer from 0 to ${layers - 1} (at least the top layer of a ${layers}-layer slab must be free).`,
      { spec },
    );
  }
  const c = facet === 'hcp0001' ? (spec.cAngstrom ?? Math.sqrt(8 / 3) * a) : 0;
  if (facet === 'hcp0001' && !(c > 0)) throw new DftScienceError(`hcp c = ${c} Å is not positive.`, { spec });

  const g = FACET_GEOMETRY[facet](a, c);
  const [u, v, d] = g.cellInA.map((x) => x * a);
  const a1: Vec3 = [u, 0, 0];
  const a2: Vec3 = g.hexagonal ? [u / 2, v, 0] : [0, v, 0];
  const [p, q] = size;

  const symbols: string[] = [];
  const positions: Vec3[] = [];
  const tags: number[] = [];
  const fixed: boolean[] = [];
  for (let k = 0; k < layers; k++) {
    const fromTop = layers - 1 - k;
    const [ox, oy] = g.offset(fromTop);
    for (let j = 0; j < q; j++) {
      for (let i = 0; i < p; i++) {
        const fi = i + ox;
        const fj = j + oy;
        symbols.push(symbol);
        positions.push([fi * a1[0] + fj * a2[0], fi * a1[1] + fj * a2[1], vacuum + k * d]);
        tags.push(fromTop + 1);
        fixed.push(fromTop >= layers - fixedLayers);
      }
    }
  }
  const cell: Cell = [
    [p * a1[0], p * a1[1], 0],
    [q * a2[0], q * a2[1], 0],
    [0, 0, (layers - 1) * d + 2 * vacuum],
  ];
  return {
    symbols,
    positions,
    cell,
    pbc: [true, true, false],
    tags,
    fixed,
    info: {
      facet,
      a,
      ...(facet === 'hcp0001' ? { c } : {}),
      size: `${p}x${q}`,
      p,
      q,
      layers,
      vacuum,
      fixedLayers,
      layerSpacing: d,
    },
  };
}

/**
 * Bulk crystals in conventional and primitive cells, with the same cell vectors and atom
 * order as ASE's `ase.build.bulk`, so structures and k-meshes compare one to one.
 */
import { DftScienceError } from '../scienceError';
import type { BravaisKind, Cell, Structure, Vec3 } from '../types';
import { toCartesian } from './cell';

export type BulkKind = Exclude<BravaisKind, 'other'>;
export type CellChoice = 'conventional' | 'primitive';

export interface BulkSpec {
  kind: BulkKind;
  /** One element; two for rocksalt, zincblende and cesiumchloride (cation, anion), e.g. ['Na', 'Cl'], ['Ga', 'As']. */
  symbols: string[];
  aAngstrom: number;
  /** hcp only; defaults to the ideal √(8/3) a. */
  cAngstrom?: number;
  /** hcp has one cell; simple cubic's conventional and primitive cells coincide. */
  cell: CellChoice;
}

const cubicCell = (a: number): Cell => [
  [a, 0, 0],
  [0, a, 0],
  [0, 0, a],
];
const fccPrimitiveCell = (a: number): Cell => [
  [0, a / 2, a / 2],
  [a / 2, 0, a / 2],
  [a / 2, a / 2, 0],
];
const bccPrimitiveCell = (a: number): Cell => [
  [-a / 2, a / 2, a / 2],
  [a / 2, -a / 2, a / 2],
  [a / 2, a / 2, -a / 2],
];
const FCC_BASIS: Vec3[] = [
  [0, 0, 0],
  [0, 0.5, 0.5],
  [0.5, 0, 0.5],
  [0.5, 0.5, 0],
];

/** The prototypes of two species (a cation and an anion). */
export const TWO_SPECIES_KINDS: readonly BulkKind[] = ['rocksalt', 'zincblende', 'cesiumchloride'];

export function bulk(spec: BulkSpec): Structure {
  const { kind, symbols, aAngstrom: a, cell } = spec;
  if (!Number.isFinite(a) || a <= 0) {
    throw new DftScienceError(`lattice constant a = ${a} Å is not a positive number. Pass a in Å (e.g. 4.05 for Al).`, { spec });
  }
  const wantSymbols = TWO_SPECIES_KINDS.includes(kind) ? 2 : 1;
  if (!Array.isArray(symbols) || symbols.length !== wantSymbols) {
    throw new DftScienceError(
      `${kind} needs ${wantSymbols} element symbol${wantSymbols > 1 ? 's (cation, anion)' : ''}; got ${JSON.stringify(symbols)}.`,
      { spec },
    );
  }
  if (cell !== 'conventional' && cell !== 'primitive') {
    throw new DftScienceError(`cell must be 'conventional' or 'primitive'; got ${JSON.stringify(cell)}.`, { spec });
  }
  const [x, y = x] = symbols;
  const info = { bravais: kind, cell, a: a };
  const make = (c: Cell, syms: string[], cart: Vec3[]): Structure => ({
    symbols: syms,
    positions: cart,
    cell: c,
    pbc: [true, true, true],
    info: kind === 'hcp' ? { ...info, c: c[2][2] } : info,
  });
  const conventional = cell === 'conventional';
  switch (kind) {
    case 'sc':
      return make(cubicCell(a), [x], [[0, 0, 0]]);
    case 'fcc':
      return conventional
        ? make(
            cubicCell(a),
            FCC_BASIS.map(() => x),
            FCC_BASIS.map((f) => toCartesian(cubicCell(a), f)),
          )
        : make(fccPrimitiveCell(a), [x], [[0, 0, 0]]);
    case 'bcc':
      return conventional
        ? make(
            cubicCell(a),
            [x, x],
            [
              [0, 0, 0],
              [a / 2, a / 2, a / 2],
            ],
          )
        : make(bccPrimitiveCell(a), [x], [[0, 0, 0]]);
    case 'diamond':
    case 'zincblende': {
      // zincblende (B3, F-43m) is diamond with its two fcc sublattices of different species
      const other = kind === 'zincblende' ? y : x;
      const quarter: Vec3 = [a / 4, a / 4, a / 4];
      if (!conventional) return make(fccPrimitiveCell(a), [x, other], [[0, 0, 0], quarter]);
      const pos = FCC_BASIS.flatMap((f) => {
        const p = toCartesian(cubicCell(a), f);
        return [p, [p[0] + quarter[0], p[1] + quarter[1], p[2] + quarter[2]] as Vec3];
      });
      return make(
        cubicCell(a),
        pos.map((_, i) => (i % 2 === 0 ? x : other)),
        pos,
      );
    }
    case 'cesiumchloride':
      // B2 (Pm-3m): simple cubic with a second species at the body centre; one cell, conventional and primitive alike
      return make(
        cubicCell(a),
        [x, y],
        [
          [0, 0, 0],
          [a / 2, a / 2, a / 2],
        ],
      );
    case 'rocksalt': {
      if (!conventional)
        return make(
          fccPrimitiveCell(a),
          [x, y],
          [
            [0, 0, 0],
            [a / 2, 0, 0],
          ],
        );
      const pos = FCC_BASIS.flatMap((f) => {
        const p = toCartesian(cubicCell(a), f);
        return [p, [(p[0] + a / 2) % a, p[1], p[2]] as Vec3];
      });
      return make(
        cubicCell(a),
        pos.map((_, i) => (i % 2 === 0 ? x : y)),
        pos,
      );
    }
    case 'hcp': {
      const c = spec.cAngstrom ?? Math.sqrt(8 / 3) * a;
      if (!Number.isFinite(c) || c <= 0) {
        throw new DftScienceError(`hcp c = ${c} Å is not a positive number. Pass cAngstrom, or omit it for the ideal √(8/3) a.`, { spec });
      }
      const hex: Cell = [
        [a, 0, 0],
        [-a / 2, (a * Math.sqrt(3)) / 2, 0],
        [0, 0, c],
      ];
      return make(hex, [x, x], [[0, 0, 0], toCartesian(hex, [1 / 3, 2 / 3, 0.5])]);
    }
    default:
      throw new DftScienceError(
        `unknown bulk kind ${JSON.stringify(kind)}. Use one of sc, fcc, bcc, diamond, hcp, rocksalt, zincblende, cesiumchloride.`,
        { spec },
      );
  }
}

/**
 * The lattice constant a from an equilibrium cell volume V0, through the cell's symmetry.
 * The cell must be named: the relation between V and a depends on the lattice and on
 * whether the cell is conventional or primitive, so a bare cube root of an unnamed cell
 * is refused.
 *
 *   conventional cubic (sc, fcc, bcc, diamond, rocksalt,
 *     zincblende, cesiumchloride):                          a = V0^(1/3)
 *   cesiumchloride primitive (the simple cubic cell):       a = V0^(1/3)
 *   fcc / diamond / rocksalt / zincblende primitive
 *     (V = a^3/4):                                          a = (4 V0)^(1/3)
 *   bcc primitive (V = a^3/2):                             a = (2 V0)^(1/3)
 *   hcp (V = (√3/2) a^2 c, c = (c/a) a):                   a = (2 V0 / (√3 c/a))^(1/3)
 */
import { DftScienceError } from './scienceError';
import type { BravaisKind, Structure } from './types';

export type CellChoice = 'conventional' | 'primitive';

export interface LatticeCellSpec {
  bravais: BravaisKind;
  /** Required for cubic lattices; hcp has one cell. */
  cell?: CellChoice;
  /** hcp only: the c/a ratio held fixed in the EOS series. */
  cOverA?: number;
}

export interface LatticeConstant {
  aAngstrom: number;
  /** hcp only. */
  cAngstrom?: number;
  /** The relation used, e.g. "a = (4 V0)^(1/3) (fcc primitive cell)". */
  relation: string;
}

const CUBIC: BravaisKind[] = ['sc', 'fcc', 'bcc', 'diamond', 'rocksalt', 'zincblende', 'cesiumchloride'];

/** Lattice points (conventional cell volume / primitive cell volume) for each cubic lattice. */
const PRIMITIVE_PER_CONVENTIONAL: Partial<Record<BravaisKind, number>> = {
  sc: 1,
  cesiumchloride: 1,
  fcc: 4,
  diamond: 4,
  rocksalt: 4,
  zincblende: 4,
  bcc: 2,
};

export function latticeConstantFromVolume(v0A3: number, spec: LatticeCellSpec): LatticeConstant {
  if (!Number.isFinite(v0A3) || v0A3 <= 0) {
    throw new DftScienceError(`equilibrium volume ${v0A3} Å^3 is not a positive number. Pass the fitted V0 of the cell, in Å^3.`, { v0A3 });
  }
  if (spec.bravais === 'hcp') {
    const r = spec.cOverA;
    if (r === undefined || !Number.isFinite(r) || r <= 0) {
      throw new DftScienceError(
        `an hcp lattice constant needs the c/a ratio held fixed in the EOS series; got ${r}. ` +
          'Pass cOverA (e.g. 1.633 for ideal packing, or the ratio of the cells you computed).',
        { spec },
      );
    }
    const a = ((2 * v0A3) / (Math.sqrt(3) * r)) ** (1 / 3);
    return { aAngstrom: a, cAngstrom: r * a, relation: `a = (2 V0 / (√3 · ${r}))^(1/3), c = ${r} a (hcp, fixed c/a)` };
  }
  if (!CUBIC.includes(spec.bravais)) {
    throw new DftScienceError(
      `cannot turn a volume into a lattice constant for a cell of kind "${spec.bravais}": the relation depends on the lattice. ` +
        `Pass bravais as one of ${[...CUBIC, 'hcp'].join(', ')} with cell 'conventional' or 'primitive' (and cOverA for hcp), ` +
        'or report V0 itself.',
      { spec },
    );
  }
  if (spec.cell !== 'conventional' && spec.cell !== 'primitive') {
    throw new DftScienceError(
      `say which ${spec.bravais} cell V0 belongs to: cell 'conventional' (a = V0^(1/3)) or 'primitive' ` +
        `(a = (${PRIMITIVE_PER_CONVENTIONAL[spec.bravais]} V0)^(1/3)); got ${JSON.stringify(spec.cell)}.`,
      { spec },
    );
  }
  const n = spec.cell === 'conventional' ? 1 : PRIMITIVE_PER_CONVENTIONAL[spec.bravais]!;
  return {
    aAngstrom: (n * v0A3) ** (1 / 3),
    relation: n === 1 ? `a = V0^(1/3) (${spec.bravais} ${spec.cell} cell)` : `a = (${n} V0)^(1/3) (${spec.bravais} primitive cell)`,
  };
}

/** The inverse: cell volume for a lattice constant, Å^3 (used to build EOS series). */
export function volumeFromLatticeConstant(aAngstrom: number, spec: LatticeCellSpec): number {
  const unitVolume = latticeConstantFromVolume(1, spec).aAngstrom;
  return (aAngstrom / unitVolume) ** 3;
}

/**
 * The cell description `bulk()` records in a structure's info (bravais, cell, a, c), so a
 * V0 fitted on that structure's series turns into a lattice constant without guessing.
 */
export function latticeCellSpecOf(structure: Structure): LatticeCellSpec {
  const bravais = structure.info?.bravais as BravaisKind | undefined;
  const cell = structure.info?.cell as CellChoice | undefined;
  if (!bravais) {
    throw new DftScienceError(
      'this structure does not record its lattice (info.bravais, info.cell), so V0 cannot be turned into a lattice constant. ' +
        'Build it with bulk(), or pass { bravais, cell } (and cOverA for hcp) yourself.',
      { info: structure.info },
    );
  }
  if (bravais === 'hcp') return { bravais, cOverA: Number(structure.info?.c) / Number(structure.info?.a) };
  return cell ? { bravais, cell } : { bravais };
}

/**
 * The cell a pw.x input describes, in Å: from ibrav with celldm(1..6) or A, B, C,
 * cosAB, cosAC, cosBC (the lattice vectors QE's latgen builds, as listed in INPUT_PW
 * under ibrav), or from CELL_PARAMETERS for ibrav = 0.
 */
import { DreamsError } from '../../../errors';
import { BOHR_IN_ANGSTROM } from '../../../units';
import type { Cell, Vec3 } from '../../types';
import { readCellParameters } from './cards';
import type { PwInput } from './model';
import { numberIn, valueOf } from './query';

export interface InputLattice {
  cellAngstrom: Cell;
  /** The lattice parameter alat, Å (positions in alat units are multiples of it). */
  alatAngstrom: number;
  ibrav: number;
}

export class LatticeError extends DreamsError<'bad-input'> {
  override readonly name = 'LatticeError';
  constructor(message: string) {
    super('bad-input', message);
  }
}

/** celldm(1..6) from A, B, C, cosAB, cosAC, cosBC as pw.x converts them (abc2celldm). */
function celldmOf(input: PwInput, ibrav: number): number[] | undefined {
  const celldm = [1, 2, 3, 4, 5, 6].map((i) => numberIn(input, 'system', `celldm(${i})`) ?? 0);
  if (numberIn(input, 'system', 'celldm(1)') !== undefined) return celldm;
  const A = numberIn(input, 'system', 'A');
  if (A === undefined) return undefined;
  const B = numberIn(input, 'system', 'B') ?? 0;
  const C = numberIn(input, 'system', 'C') ?? 0;
  const cosAB = numberIn(input, 'system', 'cosAB') ?? 0;
  const cosAC = numberIn(input, 'system', 'cosAC') ?? 0;
  const cosBC = numberIn(input, 'system', 'cosBC') ?? 0;
  const out = [A / BOHR_IN_ANGSTROM, B / A, C / A, 0, 0, 0];
  if (ibrav === 14 || ibrav === 0) {
    out[3] = cosBC;
    out[4] = cosAC;
    out[5] = cosAB;
  } else if (ibrav === -12 || ibrav === -13) {
    out[4] = cosAC;
  } else {
    out[3] = cosAB;
  }
  return out;
}

/** Lattice vectors in units of alat for ibrav != 0. */
function latgen(ibrav: number, c: number[]): [Vec3, Vec3, Vec3] | undefined {
  const [, b, ca, c4, c5, c6] = c as [number, number, number, number, number, number];
  const s3 = Math.sqrt(3);
  switch (ibrav) {
    case 1:
      return [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ];
    case 2:
      return [
        [-0.5, 0, 0.5],
        [0, 0.5, 0.5],
        [-0.5, 0.5, 0],
      ];
    case 3:
      return [
        [0.5, 0.5, 0.5],
        [-0.5, 0.5, 0.5],
        [-0.5, -0.5, 0.5],
      ];
    case -3:
      return [
        [-0.5, 0.5, 0.5],
        [0.5, -0.5, 0.5],
        [0.5, 0.5, -0.5],
      ];
    case 4:
      return [
        [1, 0, 0],
        [-0.5, s3 / 2, 0],
        [0, 0, ca],
      ];
    case 5:
    case -5: {
      const tx = Math.sqrt((1 - c4) / 2);
      const ty = Math.sqrt((1 - c4) / 6);
      const tz = Math.sqrt((1 + 2 * c4) / 3);
      if (ibrav === 5)
        return [
          [tx, -ty, tz],
          [0, 2 * ty, tz],
          [-tx, -ty, tz],
        ];
      const u = (tz - 2 * Math.SQRT2 * ty) / s3;
      const v = (tz + Math.SQRT2 * ty) / s3;
      return [
        [u, v, v],
        [v, u, v],
        [v, v, u],
      ];
    }
    case 6:
      return [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, ca],
      ];
    case 7:
      return [
        [0.5, -0.5, ca / 2],
        [0.5, 0.5, ca / 2],
        [-0.5, -0.5, ca / 2],
      ];
    case 8:
      return [
        [1, 0, 0],
        [0, b, 0],
        [0, 0, ca],
      ];
    case 9:
      return [
        [0.5, b / 2, 0],
        [-0.5, b / 2, 0],
        [0, 0, ca],
      ];
    case -9:
      return [
        [0.5, -b / 2, 0],
        [0.5, b / 2, 0],
        [0, 0, ca],
      ];
    case 91:
      return [
        [1, 0, 0],
        [0, b / 2, -ca / 2],
        [0, b / 2, ca / 2],
      ];
    case 10:
      return [
        [0.5, 0, ca / 2],
        [0.5, b / 2, 0],
        [0, b / 2, ca / 2],
      ];
    case 11:
      return [
        [0.5, b / 2, ca / 2],
        [-0.5, b / 2, ca / 2],
        [-0.5, -b / 2, ca / 2],
      ];
    case 12:
      return [
        [1, 0, 0],
        [b * c4, b * Math.sqrt(1 - c4 * c4), 0],
        [0, 0, ca],
      ];
    case -12:
      return [
        [1, 0, 0],
        [0, b, 0],
        [ca * c5, 0, ca * Math.sqrt(1 - c5 * c5)],
      ];
    case 13:
      return [
        [0.5, 0, -ca / 2],
        [b * c4, b * Math.sqrt(1 - c4 * c4), 0],
        [0.5, 0, ca / 2],
      ];
    case -13:
      return [
        [0.5, b / 2, 0],
        [-0.5, b / 2, 0],
        [ca * c5, 0, ca * Math.sqrt(1 - c5 * c5)],
      ];
    case 14: {
      const singam = Math.sqrt(1 - c6 * c6);
      const term = Math.sqrt(1 + 2 * c4 * c5 * c6 - c4 * c4 - c5 * c5 - c6 * c6) / singam;
      return [
        [1, 0, 0],
        [b * c6, b * singam, 0],
        [ca * c5, (ca * (c4 - c5 * c6)) / singam, ca * term],
      ];
    }
    default:
      return undefined;
  }
}

const scale = (v: Vec3, s: number): Vec3 => [v[0] * s, v[1] * s, v[2] * s];

/** The input's cell in Å. Throws a LatticeError saying what is missing when the input does not define one. */
export function latticeOfInput(input: PwInput): InputLattice {
  const ibrav = numberIn(input, 'system', 'ibrav');
  if (ibrav === undefined) {
    throw new LatticeError(
      'the input sets no ibrav in &SYSTEM, so its cell is unknown; set ibrav (0 with CELL_PARAMETERS, or a Bravais lattice index).',
    );
  }
  const celldm = celldmOf(input, ibrav);
  if (ibrav === 0) {
    const read = readCellParameters(input);
    if (!read || read.problems.length) {
      throw new LatticeError(
        'ibrav = 0 needs a readable CELL_PARAMETERS card with three vectors; ' +
          (read ? read.problems.map((p) => p.message).join(' ') : 'it is missing.'),
      );
    }
    const alatGiven = celldm ? celldm[0]! * BOHR_IN_ANGSTROM : undefined;
    const unit = read.value.unit ?? (alatGiven !== undefined ? 'alat' : 'bohr');
    let factor: number;
    if (unit === 'angstrom') factor = 1;
    else if (unit === 'bohr') factor = BOHR_IN_ANGSTROM;
    else {
      if (alatGiven === undefined) {
        throw new LatticeError(
          'CELL_PARAMETERS {alat} needs celldm(1) or A to give alat; state the vectors in {angstrom} or {bohr}, or set celldm(1).',
        );
      }
      factor = alatGiven;
    }
    const cell = read.value.vectors.map((v) => scale(v, factor)) as Cell;
    const a1 = Math.hypot(...cell[0]);
    return { cellAngstrom: cell, alatAngstrom: alatGiven ?? a1, ibrav };
  }
  if (!celldm) {
    throw new LatticeError(`ibrav = ${ibrav} needs the lattice parameter celldm(1) (bohr) or A (Å); neither is set.`);
  }
  const vectors = latgen(ibrav, celldm);
  if (!vectors) {
    throw new LatticeError(`ibrav = ${ibrav} is not a Bravais-lattice index pw.x knows (0-14, -3, -5, -9, 91, -12, -13).`);
  }
  const alat = celldm[0]! * BOHR_IN_ANGSTROM;
  return { cellAngstrom: vectors.map((v) => scale(v, alat)) as Cell, alatAngstrom: alat, ibrav };
}

/** True when the input gives its lattice parameter as celldm(1) (else as A, or through CELL_PARAMETERS). */
export function usesCelldm(input: PwInput): boolean {
  return valueOf(input, 'system', 'celldm(1)') !== undefined;
}

/**
 * Lattice parameters from an equilibrium volume, through the crystal's symmetry rather than a
 * structure's name. The EOS series scales one cell isotropically; its symmetry (moyo) gives the
 * standardised conventional cell and how many of the computed cells make it. At the fitted
 * volume V0 (per computed cell) the conventional cell is the standardised one scaled by
 * s = (V0 / V_cell)^(1/3): its angles and axis ratios are those of the computed cell.
 *
 *   cubic (any centring, any basis):  a = (n V0)^(1/3), n = computed cells per conventional cell
 *                                     (4 for the fcc/rocksalt/zincblende primitive cell, 2 for bcc)
 *   any other crystal system:         a, b, c = those of the conventional cell × s, c/a and the
 *                                     angles unchanged (the shape the series was computed at)
 *
 * Lengths in Å, volumes in Å³, angles in degrees.
 */
import { DftScienceError } from './scienceError';
import { cellVolume } from './structure/cell';
import { analyseSymmetry, symprecSaid } from './structure/symmetry';
import type { Structure } from './types';

export interface CrystalLatticeAtVolume {
  spaceGroup: { number: number; symbol: string; crystalSystem: string };
  /** The symmetry tolerance the space group was found at, Å. */
  symprecAngstrom: number;
  cubic: boolean;
  /** Computed cells per standardised conventional cell (4 for an fcc primitive cell; 1 for a conventional one). */
  cellsPerConventional: number;
  aAngstrom: number;
  bAngstrom: number;
  cAngstrom: number;
  alphaDegrees: number;
  betaDegrees: number;
  gammaDegrees: number;
  cOverA: number;
  /** The volume given, per computed cell. */
  volumePerCellAngstrom3: number;
  conventionalVolumeAngstrom3: number;
  /** Atoms in the computed cell and per conventional cell. */
  atomsPerCell: number;
  /** How a was obtained, in words and symbols (for the report and the record). */
  relation: string;
}

/** Whole numbers of cells are written as such: 4, not 3.9999999. */
const tidy = (x: number) => (Math.abs(x - Math.round(x)) < 1e-6 ? Math.round(x) : x);

/**
 * The lattice parameters of `structure`'s crystal when its cell has volume `v0Angstrom3`
 * (the cell scaled isotropically, as an EOS series does).
 */
export function latticeAtVolume(
  structure: Structure,
  v0Angstrom3: number,
  options: { symprecAngstrom?: number } = {},
): CrystalLatticeAtVolume {
  if (!Number.isFinite(v0Angstrom3) || v0Angstrom3 <= 0) {
    throw new DftScienceError(
      `equilibrium volume ${v0Angstrom3} Å^3 is not a positive number; pass the fitted V0 of the cell the series computed, in Å^3.`,
      { v0Angstrom3 },
    );
  }
  const vCell = cellVolume(structure.cell);
  if (!(vCell > 1e-9))
    throw new DftScienceError(
      'the structure has no three-dimensional cell (zero volume), so a volume cannot be turned into lattice parameters.',
      {},
    );
  const sym = analyseSymmetry(structure, {
    ...(options.symprecAngstrom !== undefined ? { symprecAngstrom: options.symprecAngstrom } : {}),
    ...(structure.labels ? { byLabel: true } : {}),
  });
  const l = sym.lattice;
  const n = tidy(l.volumeAngstrom3 / vCell);
  const s = Math.cbrt(v0Angstrom3 / vCell);
  const cubic = sym.spaceGroup.crystalSystem === 'Cubic';
  const a = l.aAngstrom * s;
  const name = `${sym.spaceGroup.symbol} (${sym.spaceGroup.number})`;
  // the tolerance the symmetry was found at, when it is not the default (the structure's own, or the one asked for)
  const at = symprecSaid(sym.symprecAngstrom);
  const cells = n === 1 ? 'the conventional cell itself' : `${n} of which make the conventional ${name} cell`;
  const relation = cubic
    ? `a = (${n} V0)^(1/3): V0 of the computed cell, ${cells}${at ? ` (symmetry found${at})` : ''}`
    : `a = ${l.aAngstrom.toFixed(6)} Å × (V0 / ${vCell.toFixed(6)} Å^3)^(1/3): the standardised ${sym.spaceGroup.crystalSystem.toLowerCase()} ${name} cell at V0, ` +
      `its shape as computed (c/a = ${l.cOverA.toFixed(6)}); V0 of the computed cell, ${cells}${at ? ` (symmetry found${at})` : ''}`;
  return {
    spaceGroup: { number: sym.spaceGroup.number, symbol: sym.spaceGroup.symbol, crystalSystem: sym.spaceGroup.crystalSystem },
    symprecAngstrom: sym.symprecAngstrom,
    cubic,
    cellsPerConventional: n,
    aAngstrom: cubic ? Math.cbrt(n * v0Angstrom3) : a,
    bAngstrom: l.bAngstrom * s,
    cAngstrom: l.cAngstrom * s,
    alphaDegrees: l.alphaDegrees,
    betaDegrees: l.betaDegrees,
    gammaDegrees: l.gammaDegrees,
    cOverA: l.cOverA,
    volumePerCellAngstrom3: v0Angstrom3,
    conventionalVolumeAngstrom3: n * v0Angstrom3,
    atomsPerCell: structure.symbols.length,
    relation,
  };
}
